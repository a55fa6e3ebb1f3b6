import Boardy
import BoardyTestSupport
import CwlPreconditionTesting
import Foundation
import Testing

/// Boardy traps on misuse of its API; so do we, after a `misuse` event that names it (so a trace
/// shows what happened), and the tools never trap (``MisusePolicy``).
@Suite("Misuse: Boardy's traps, recorded first")
struct BoardyMisuseTests {
    final class Plain: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    final class Listener: Board, InteractableBoard {
        private(set) var commands: [String] = []
        func activate(withOption _: Any?) {}
        func interact(command: Any?) { commands.append("\(command ?? "nil")") }
    }

    final class Typed: Board, GuaranteedBoard {
        typealias InputType = Int
        private(set) var inputs: [Int] = []
        func activate(withGuaranteedInput input: Int) { inputs.append(input) }
    }

    final class Commanded: Board, GuaranteedCommandBoard {
        typealias CommandType = Int
        private(set) var commands: [Int] = []
        func activate(withOption _: Any?) {}
        func interact(guaranteedCommand: Int) { commands.append(guaranteedCommand) }
    }

    /// The `misuse` lines of a harness, as `kind board trap`.
    static func misuses(_ h: Harness) -> [String] {
        h.recorder.events.compactMap { e -> String? in
            guard e.kind == "misuse", case .unknown(_, let f) = e.body else { return nil }
            return "\(f["misuse"]?.stringValue ?? "?") \(f["board"]?.stringValue ?? "-") \(f["trap"]?.stringValue ?? "?")"
        }
    }

    @Test("a duplicate addBoard and one off the main thread are recorded; a release build replaces the board")
    func duplicateAndOffMainAddBoard() {
        let h = Harness(misuse: .record)
        let first = Plain(identifier: "a")
        let mb = h.motherboard([first])
        let second = Plain(identifier: "a")
        mb.addBoard(second)
        // Swift Testing runs this off the main thread, where Boardy's addBoard asserts too.
        #expect(!Thread.isMainThread)
        #expect(Self.misuses(h) == ["off-main-thread a assertion", "duplicate-board a assertion"])
        #expect(mb.boards.count == 1 && mb.boards.first === second)
        let message = h.recorder.events.last.flatMap { e -> String? in
            if case .unknown(_, let f) = e.body { return f["message"]?.stringValue }
            return nil
        }
        #expect(message?.hasSuffix("🔥 Board with identifier a was already added to motherboard Motherboard(main).") == true)
    }

    @Test("an interaction with a board that is not installed, or not interactable, is recorded after the command")
    func interactions() {
        let h = Harness(misuse: .record)
        let listener = Listener(identifier: "listener")
        let mb = h.motherboard([listener, Plain(identifier: "plain")])
        mb.interactWithBoard(command: BoardCommand<String>(identifier: "missing", input: "x"))
        mb.interactWithBoard(command: BoardCommand<String>(identifier: "plain", input: "y"))
        mb.interactWithBoard(command: BoardCommand<String>(identifier: "listener", input: "z"))
        #expect(Self.misuses(h) == ["board-not-installed missing assertion", "not-interactable plain assertion"])
        #expect(h.lines.contains(#"command.sent missing "x" {"delivered":false}"#))
        #expect(listener.commands == ["z"])
    }

    @Test("a typed flow handed another type is recorded and does not run; silent data passes quietly")
    func typedFlowMismatch() {
        let h = Harness(misuse: .record)
        let sender = ClosureBoard<Any?>(identifier: "s") { b, input in b.sendOutput(input) }
        let mb = h.motherboard([sender])
        var got: [String] = []
        mb.registerGuaranteedFlow(matchedIdentifiers: ["s"], target: self, uniqueOutputType: String.self) { _, s in got.append(s) }
        mb.activate("s", with: "ok")
        mb.activate("s", with: 42)
        mb.activate("s", with: CompleteAction(identifier: "s", isDone: true))
        #expect(got == ["ok"])
        #expect(Self.misuses(h) == ["flow-type-mismatch s assertion"])
    }

    @Test("a guaranteed board given an option it cannot convert: activation.cancelled, then the misuse")
    func guaranteedInputMismatch() {
        let h = Harness(misuse: .record)
        let typed = Typed(identifier: "typed")
        h.motherboard([typed]).activate("typed", with: "not an int")
        #expect(typed.inputs.isEmpty)
        #expect(Array(h.lines.suffix(2)).first == #"activation.cancelled typed invalid-input {"detail":"expected input of type Int (or its JSON), got String"}"#)
        #expect(Self.misuses(h) == ["input-mismatch typed assertion"])
    }

    @Test("a guaranteed command board sent another type is recorded")
    func commandMismatch() {
        let h = Harness(misuse: .record)
        let board = Commanded(identifier: "c")
        let mb = h.motherboard([board])
        mb.interactWithBoard(command: BoardCommand<Int>(identifier: "c", input: 1))
        mb.interactWithBoard(command: BoardCommand<String>(identifier: "c", input: "two"))
        #expect(board.commands == [1])
        #expect(Self.misuses(h) == ["command-type-mismatch c assertion"])
    }

    @Test("the serviceMap of a board no longer installed is a precondition: recorded under its last motherboard")
    func serviceMapOfARemovedBoard() {
        let h = Harness(misuse: .record)
        let board = Plain(identifier: "gone")
        let mb = h.motherboard([board])
        mb.removeBoard(withIdentifier: "gone")
        let map = board.serviceMap
        #expect(map.mainboard !== mb)
        #expect(Self.misuses(h) == ["service-map-without-motherboard gone precondition"])
    }

    @Test("under .ignore (the simulator's), nothing is recorded and nothing traps")
    func ignoreRecordsNothing() {
        let h = Harness(misuse: .ignore)
        let mb = h.motherboard([Plain(identifier: "a"), Typed(identifier: "typed")])
        mb.addBoard(Plain(identifier: "a"))
        mb.interactWithBoard(command: BoardCommand<String>(identifier: "missing", input: "x"))
        mb.activate("typed", with: "not an int")
        #expect(Self.misuses(h).isEmpty)
        #expect(h.lines.last == #"activation.cancelled typed invalid-input {"detail":"expected input of type Int (or its JSON), got String"}"#)
    }

    @Test("under .trap, the trace file ends with the misuse, written out before the trap")
    func trapWritesTheEventFirst() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("misuse-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceWriter(path: path, header: TraceHeader(scenario: "misuse"))
        let runtime = BoardyRuntime(observer: writer, misuse: .trap)
        let mb = Motherboard(boards: [Plain(identifier: "a")], runtime: runtime)
        mb.stimulate(.activate("a"))
        let caught = catchBadInstruction { mb.sendCommand("x", to: "missing") }
        #if DEBUG
            #expect(caught != nil)
            // Read before close: what the trap left is what a crashed app leaves.
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            let last = try #require(lines.last)
            #expect(last.contains(#""kind":"misuse""#) && last.contains(#""misuse":"board-not-installed""#))
        #else
            #expect(caught == nil)
        #endif
        try? writer.close()
    }

    @Test("serviceMap traps in every build, even where the board was never installed")
    func serviceMapTrapsWithoutARuntime() {
        let caught = catchBadInstruction { _ = Plain(identifier: "orphan").serviceMap }
        #expect(caught != nil)
    }
}
