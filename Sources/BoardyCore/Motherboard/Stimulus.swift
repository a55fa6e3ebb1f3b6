/// An input from outside the flow: a script step, a test's call, a user closing a screen. It is
/// recorded as a `stimulus` event that causes everything it starts, which is what a replay feeds
/// back in.
public enum Stimulus {
    /// Activate `board` with `input`.
    case activate(BoardID, input: Any? = nil)
    /// Complete the installed `board` from outside with `isDone`.
    case complete(BoardID, isDone: Bool)
    /// Send `command` to the installed `board`.
    case command(BoardID, Any?)

    var action: StimulusAction {
        switch self {
        case .activate: return .activate
        case .complete: return .complete
        case .command: return .command
        }
    }

    var fields: JSONObject {
        switch self {
        case .activate(let board, let input):
            var o: JSONObject = ["board": .string(board.rawValue)]
            if let input = TraceValue.json(input) { o["input"] = input }
            return o
        case .complete(let board, let isDone):
            return ["board": .string(board.rawValue), "with": .bool(isDone)]
        case .command(let board, let command):
            return ["board": .string(board.rawValue), "command": TraceValue.json(command) ?? .null]
        }
    }
}

extension Motherboard {
    /// Applies an outside stimulus: records it, then performs it with the stimulus as its cause.
    public func stimulate(_ stimulus: Stimulus) {
        guard let runtime else {
            // Not installed yet: no trace to record in; the work waits for the installation.
            switch stimulus {
            case let .activate(id, input): activate(id, with: input)
            case let .complete(id, isDone): completeBoard(id, isDone: isDone)
            case let .command(id, command): sendCommand(command, to: id)
            }
            return
        }
        let seq = runtime.recordStimulus(stimulus.action, fields: stimulus.fields, mb: path)
        runtime.withCause(seq) {
            switch stimulus {
            case .activate(let id, let input): activate(id, with: input)
            case .complete(let id, let isDone): completeBoard(id, isDone: isDone)
            case .command(let id, let command): sendCommand(command, to: id)
            }
        }
    }
}
