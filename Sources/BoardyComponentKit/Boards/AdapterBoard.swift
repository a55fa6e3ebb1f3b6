import BoardyCore

/// A board that stands for another (`destination`) with its own input and output types
/// (Boardy's `AdapterBoard`): inputs are mapped to the destination's before it activates,
/// its outputs are mapped back before they are sent on, and it is never gated by the gateway.
public final class AdapterBoard<Destination, In, Out>: Board, GuaranteedBoard, GuaranteedOutputSendingBoard, InteractableBoard, BoardDelegate
where Destination: GuaranteedBoard, Destination: GuaranteedOutputSendingBoard {
    /// The adapter's input.
    public typealias InputType = In
    /// The adapter's output.
    public typealias OutputType = Out

    /// The board adapted.
    public let destination: Destination
    private var inputMapper: ((In) -> Destination.InputType)?
    private var outputMapper: ((Destination.OutputType) -> Out)?

    /// An adapter for `destination`, under its id.
    public init(destination: Destination, inputMapper: @escaping (In) -> Destination.InputType, outputMapper: @escaping (Destination.OutputType) -> Out) {
        self.destination = destination
        self.inputMapper = inputMapper
        self.outputMapper = outputMapper
        super.init(identifier: destination.identifier)
        destination.delegate = self
    }

    /// Replaces the input mapping.
    @discardableResult
    public func setInputMapper(_ mapper: @escaping (In) -> Destination.InputType) -> Self {
        inputMapper = mapper
        return self
    }

    /// Replaces the output mapping.
    @discardableResult
    public func setOutputMapper(_ mapper: @escaping (Destination.OutputType) -> Out) -> Self {
        outputMapper = mapper
        return self
    }

    /// The destination's barrier for the mapped input.
    public func activationBarrier(withGuaranteedInput input: In) -> ActivationBarrier? {
        if let inputMapper { return destination.activationBarrier(withGuaranteedInput: inputMapper(input)) }
        return destination.activationBarrier(withOption: input)
    }

    /// Activates the destination with the mapped input.
    public func activate(withGuaranteedInput input: In) {
        if let inputMapper { destination.activate(withGuaranteedInput: inputMapper(input)) } else { destination.activate(withOption: input) }
    }

    /// Passes the command on to the destination when it takes commands.
    public func interact(command: Any?) {
        (destination as? any InteractableBoard)?.interact(command: command)
    }

    /// What the destination sends: its outputs mapped and sent as the adapter's, the rest as is.
    public func board(_ board: any IdentifiableBoard, didSendData data: Any?) {
        guard let raw = data as? Destination.OutputType else {
            sendToMotherboard(data: data)
            return
        }
        if let outputMapper { sendOutput(outputMapper(raw)) } else { sendToMotherboard(data: raw) }
    }

    /// An adapter is never gated.
    public func shouldBypassGatewayBarrier() -> Bool { true }
}

extension AdapterBoard where Destination.InputType == In {
    /// An adapter that maps only outputs.
    public convenience init(destination: Destination, outputMapper: @escaping (Destination.OutputType) -> Out) {
        self.init(destination: destination, inputMapper: { $0 }, outputMapper: outputMapper)
    }
}

extension AdapterBoard where Destination.OutputType == Out {
    /// An adapter that maps only inputs.
    public convenience init(destination: Destination, inputMapper: @escaping (In) -> Destination.InputType) {
        self.init(destination: destination, inputMapper: inputMapper, outputMapper: { $0 })
    }
}

extension AdapterBoard where Destination.InputType == In, Destination.OutputType == Out {
    /// An adapter that maps nothing.
    public convenience init(destination: Destination) {
        self.init(destination: destination, inputMapper: { $0 }, outputMapper: { $0 })
    }
}

/// One action of an alert (Boardy's `AlertAction`): its title, style, whether it is the
/// preferred one, and what it does. Headless, an alert is never shown; the value is what board
/// code builds and hands an alert board.
public struct AlertAction {
    /// How an action looks.
    public enum Style {
        /// A plain action.
        case `default`
        /// The action that dismisses.
        case cancel
        /// An action that destroys something.
        case destructive
    }

    /// The title.
    public let title: String
    /// The style.
    public let style: Style
    /// Whether it is the alert's preferred action.
    public let shouldBePreferred: Bool
    /// What choosing it does.
    public let handler: (() -> Void)?

    /// An action.
    public init(title: String, style: Style = .default, shouldBePreferred: Bool = false, handler: (() -> Void)?) {
        self.title = title
        self.style = style
        self.shouldBePreferred = shouldBePreferred
        self.handler = handler
    }

    /// An action whose handler receives `target` (held weakly).
    public init<Target: AnyObject>(title: String, style: Style = .default, shouldBePreferred: Bool = false, target: Target, handler: ((Target) -> Void)?) {
        self.init(title: title, style: style, shouldBePreferred: shouldBePreferred) { [weak target] in
            if let target { handler?(target) }
        }
    }
}
