import Foundation
/// A board a motherboard can activate (Boardy's `ActivatableBoard`).
///
/// The motherboard transports inputs, outputs and commands untyped; ``GuaranteedBoard`` and
/// ``GuaranteedCommandBoard`` type them, and a value of the wrong type becomes a traced
/// cancellation (`invalid-input`) instead of Boardy's debug assertion.
public protocol ActivatableBoard: IdentifiableBoard, OriginalBoard, BoardRegistrationsConvertible {
    /// Runs the board with `option` as its input.
    func activate(withOption option: Any?)
    /// Receives a command (`interact`); only installed boards receive commands.
    func interact(command: Any?)
    /// Why `option` cannot be this board's input, or nil when it can.
    func inputMismatch(_ option: Any?) -> String?
    /// The board's input type as Boardy's messages name it (`String`; `Any?` for an untyped
    /// board).
    var inputTypeDescription: String { get }
    /// Whether the board skips the gateway barrier (Boardy's `shouldBypassGatewayBarrier()`).
    func shouldBypassGatewayBarrier() -> Bool
    /// The barrier the board's activation with `option` must pass first, if any.
    func activationBarrier(withOption option: Any?) -> ActivationBarrier?
    /// Why the board turns down an activation it is about to perform (e.g. `busy`), or nil.
    /// Asked right before `activate`, after every barrier; a rejection is traced as
    /// `activation.cancelled` instead of `activation.performed`.
    func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason?
}

extension ActivatableBoard {
    /// A board in a registration builder registers itself, under its id.
    public func asBoardRegistrations() -> [BoardRegistration] {
        [BoardRegistration(identifier) { _ in self }]
    }

    /// Runs the board with no input (`activate(withOption: nil)`).
    public func activate() {
        activate(withOption: nil)
    }

    /// A completer of the board `destinationID`, a sibling in this board's motherboard.
    public func completer(_ destinationID: BoardID) -> BoardCompleter {
        BoardCompleter(destinationID: destinationID, source: self)
    }

    /// Boards ignore commands unless they implement `interact`.
    public func interact(command: Any?) {}
    /// Untyped boards accept any input.
    public func inputMismatch(_ option: Any?) -> String? { nil }
    /// Untyped boards take `Any?`.
    public var inputTypeDescription: String { "Optional<Any>" }
    /// Boards go through the gateway unless they opt out.
    public func shouldBypassGatewayBarrier() -> Bool { false }
    /// Boards have no activation barrier unless they return one.
    public func activationBarrier(withOption option: Any?) -> ActivationBarrier? { nil }
    /// Boards accept every activation unless they say otherwise.
    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? { nil }
}

/// A board with a typed input (Boardy's `GuaranteedBoard`). A `Void` input accepts `nil`, an
/// optional input accepts `nil` as `.none`.
public protocol GuaranteedBoard: ActivatableBoard, AdaptableBoard {
    /// The input type.
    associatedtype InputType
    /// Tests of options the board ignores without it being a mismatch (Boardy's
    /// `silentInputWhiteList`; its silent data types are always ignored so).
    var silentInputWhiteList: [(_ input: Any?) -> Bool] { get }
    /// Runs the board with a well-typed input.
    func activate(withGuaranteedInput input: InputType)
    /// The barrier the activation with `input` must pass first, if any.
    func activationBarrier(withGuaranteedInput input: InputType) -> ActivationBarrier?
}

// The defaults are inlinable so they specialize for each concrete board type (no generic
// metadata lookups per activation).
extension GuaranteedBoard {
    /// No options are ignored beyond Boardy's silent data types unless the board lists some.
    public var silentInputWhiteList: [(_ input: Any?) -> Bool] { [] }

    /// `option` as this board's input: itself when it has the type, else what the first of the
    /// board's ``AdaptableBoard/inputAdapters`` makes of it.
    @inlinable
    func guaranteedInput(_ option: Any?) -> InputType? {
        if let input = BoardValue.cast(option, to: InputType.self) { return input }
        for adapter in inputAdapters { if let input = adapter(option) { return input } }
        return nil
    }

    /// Runs the board with `option` as its input. An option it cannot convert traps as in
    /// Boardy (an assertion: a debug build), unless it is one of Boardy's silent data types or
    /// the board's ``silentInputWhiteList`` lets it pass; then nothing happens.
    @inlinable
    public func activate(withOption option: Any?) {
        if let input = guaranteedInput(option) {
            activate(withGuaranteedInput: input)
        } else if inputMismatch(option) != nil {
            reportInputMismatch(option)
        }
    }

    /// The board's input type, as Boardy's messages name it.
    public var inputTypeDescription: String { "\(InputType.self)" }

    /// Boardy's trap for an option this board cannot convert (not inlinable: it traps as this
    /// library was built).
    @usableFromInline
    func reportInputMismatch(_ option: Any?) {
        let (runtime, path) = misuseHome
        BoardyMisuse(
            .inputMismatch, board: identifier,
            message: "\(String(describing: self))\n🔥 Cannot convert input from \(String(describing: option)) to type \(InputType.self)"
        ).report(runtime: runtime, mb: path)
    }

    /// Nil when `option` converts to the input, is one of Boardy's silent data types or passes
    /// ``silentInputWhiteList``; else what was expected and what came.
    @inlinable
    public func inputMismatch(_ option: Any?) -> String? {
        guard guaranteedInput(option) == nil else { return nil }
        // An option the board ignores on purpose is not a mismatch (Boardy returns silently),
        // nor is one of Boardy's own models.
        if isSilentData(option) || silentInputWhiteList.contains(where: { $0(option) }) { return nil }
        return "expected input of type \(InputType.self), got \(BoardValue.typeDescription(option))"
    }

    /// The barrier for `option` converted to the input; none when it does not convert.
    @inlinable
    public func activationBarrier(withOption option: Any?) -> ActivationBarrier? {
        guard let input = guaranteedInput(option) else { return nil }
        return activationBarrier(withGuaranteedInput: input)
    }

    /// Typed boards have no activation barrier unless they return one.
    @inlinable
    public func activationBarrier(withGuaranteedInput input: InputType) -> ActivationBarrier? { nil }
}

// Codable board IO (Boardy's `GuaranteedBoard where InputType: Decodable`): an option that is not
// an `InputType` already is decoded from JSON `Data` (what `sendEncodedOutput` sends) or from a
// JSON object (a dictionary, an array). Chosen per board type when its input is Decodable, so
// other boards keep the plain cast.
extension GuaranteedBoard where InputType: Decodable {
    /// Decodes an option that is not an `InputType` already from JSON `Data` or a JSON object
    /// (Boardy's default adapter for a Decodable input; a board listing its own replaces it).
    public var inputAdapters: [(Any?) -> InputType?] {
        [{ BoardValue.decodeJSON($0, as: InputType.self) }]
    }

    /// As for any typed board, but an option may also be the input's JSON.
    @inlinable
    public func inputMismatch(_ option: Any?) -> String? {
        guard guaranteedInput(option) == nil else { return nil }
        if isSilentData(option) || silentInputWhiteList.contains(where: { $0(option) }) { return nil }
        return "expected input of type \(InputType.self) (or its JSON), got \(BoardValue.typeDescription(option))"
    }
}

/// A board with typed commands (Boardy's `GuaranteedCommandBoard`). Commands of another type
/// are ignored.
public protocol GuaranteedCommandBoard: InteractableBoard {
    /// The command type.
    associatedtype CommandType
    /// Receives a well-typed command.
    func interact(guaranteedCommand: CommandType)
}

extension GuaranteedCommandBoard {
    /// Hands a command of the board's type on; one of another type traps as in Boardy (an
    /// assertion: a debug build) and is dropped.
    @inlinable
    public func interact(command: Any?) {
        if let c = BoardValue.cast(command, to: CommandType.self) {
            interact(guaranteedCommand: c)
        } else {
            reportCommandMismatch(command)
        }
    }

    /// Boardy's trap for a command of another type (not inlinable: it traps as this library
    /// was built).
    @usableFromInline
    func reportCommandMismatch(_ command: Any?) {
        let (runtime, path) = misuseHome
        BoardyMisuse(
            .commandTypeMismatch, board: identifier,
            message: "\(String(describing: self)) \n⚠️ Received command \(String(describing: command)) while expected type is \(CommandType.self)"
        ).report(runtime: runtime, mb: path)
    }
}

/// A board whose outputs are typed (Boardy's `GuaranteedOutputSendingBoard`).
public protocol GuaranteedOutputSendingBoard: Board {
    /// The output type.
    associatedtype OutputType
}

extension GuaranteedOutputSendingBoard where OutputType: Encodable {
    /// Sends the output encoded as JSON `Data` (Boardy's `sendEncodedOutput`); a value that
    /// cannot be encoded is a programming error.
    public func sendEncodedOutput(_ output: OutputType) {
        do {
            sendToMotherboard(data: try JSONEncoder().encode(output))
        } catch {
            assertionFailure("‼️ encoding the output of \(identifier) failed: \(error)")
        }
    }
}

extension GuaranteedOutputSendingBoard {
    /// Sends a typed output.
    public func sendOutput(_ output: OutputType) {
        emit(.output(output))
    }
}

/// Casting the motherboard's untyped values.
@usableFromInline
enum BoardValue {
    /// `value` as a `T`, treating nil as `()` for `Void` and as `.none` for optionals.
    @inlinable
    static func cast<T>(_ value: Any?, to type: T.Type) -> T? {
        if let value {
            return value as? T
        }
        if T.self == Void.self { return (() as Any) as? T }
        if let opt = T.self as? any ExpressibleByNilLiteral.Type { return opt.init(nilLiteral: ()) as? T }
        return nil
    }

    /// `value` as a `T`, else decoded from JSON `Data` or a JSON object.
    @inlinable
    static func decode<T: Decodable>(_ value: Any?, as type: T.Type) -> T? {
        if let v = cast(value, to: T.self) { return v }
        return decodeJSON(value, as: T.self)
    }

    @usableFromInline
    static func decodeJSON<T: Decodable>(_ value: Any?, as type: T.Type) -> T? {
        var data = value as? Data
        if data == nil, let value, JSONSerialization.isValidJSONObject(value) { data = try? JSONSerialization.data(withJSONObject: value) }
        guard let data else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    @usableFromInline
    static func typeDescription(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: type(of: value))
    }
}

/// A board that converts untyped options to its input type (Boardy's `AdaptableBoard`).
public protocol AdaptableBoard {
    /// The input type.
    associatedtype InputType
    /// Conversions tried in order when the option is not an `InputType` already.
    var inputAdapters: [(Any?) -> InputType?] { get }
}

extension AdaptableBoard {
    /// No conversions unless the board gives some.
    public var inputAdapters: [(Any?) -> InputType?] { [] }

    /// `option` as an input: itself if it has the type, else the first adapter's result.
    public func convertOptionToInput(_ option: Any?) -> InputType? {
        if let input = BoardValue.cast(option, to: InputType.self) { return input }
        for adapter in inputAdapters { if let input = adapter(option) { return input } }
        return nil
    }
}

/// A board whose input may be missing (Boardy's `DedicatedBoard`): an option of another type
/// activates it with nil.
public protocol DedicatedBoard: ActivatableBoard, AdaptableBoard {
    /// The barrier the activation with `input` must pass first, if any.
    func activationBarrier(withInput input: InputType?) -> ActivationBarrier?
    /// Runs the board with `input` (nil when the option was missing or of another type).
    func activate(withInput input: InputType?)
}

extension DedicatedBoard {
    /// Converts the option and activates.
    public func activate(withOption option: Any?) { activate(withInput: convertOptionToInput(option)) }
    /// Converts the option and asks for the barrier.
    public func activationBarrier(withOption option: Any?) -> ActivationBarrier? { activationBarrier(withInput: convertOptionToInput(option)) }
    /// No barrier unless the board returns one.
    public func activationBarrier(withInput _: InputType?) -> ActivationBarrier? { nil }
}

/// A board that takes commands (Boardy's `InteractableBoard`): ``ActivatableBoard/interact(command:)``.
public protocol InteractableBoard: ActivatableBoard {}

extension InteractableBoard {
    /// Takes a command model's data as the command.
    public func interact(command: any BoardCommandModel) { interact(command: command.data) }
}

/// A board that sends flow actions of one type (Boardy's `GuaranteedActionSendingBoard`).
public protocol GuaranteedActionSendingBoard: IdentifiableBoard {
    /// The flow action type.
    associatedtype FlowActionType: BoardFlowAction
}

extension GuaranteedActionSendingBoard where Self: Board {
    /// Sends a flow action: it goes up to the parent motherboard first (Boardy's
    /// `broadcastAction`).
    public func broadcastAction(_ action: FlowActionType) { sendFlowAction(action) }
}

/// A board installable into a root context (Boardy's `InstallableBoard`; its UIKit members are
/// not part of boardy-viz).
public protocol InstallableBoard: OriginalBoard {}

/// A board installable into a window (Boardy's `WindowInstallableBoard`, UIKit members aside).
public protocol WindowInstallableBoard: OriginalBoard {}

/// A board a motherboard activates and installs (Boardy's `NormalBoard`).
public typealias NormalBoard = ActivatableBoard & InstallableBoard

extension Board: InstallableBoard, WindowInstallableBoard {}

/// The board Boardy activates for an id nothing registers (Boardy's `NoBoard`): it runs
/// `handler` with the option. (The engine itself records an activation of an id nothing registers
/// as cancelled, `unregistered`, and never installs ``NoBoardProducer``'s placeholder; a NoBoard an
/// app registers on purpose is installed and activated.)
public final class NoBoard: Board, ActivatableBoard {
    /// What the board says is missing.
    public let message: String?
    private let handler: ((Any?) -> Void)?
    /// Made by ``NoBoardProducer`` for an id nothing registers (not registered by the app).
    let isPlaceholder: Bool

    /// The placeholder ``NoBoardProducer`` answers with.
    init(placeholderFor identifier: BoardID) {
        message = nil
        handler = nil
        isPlaceholder = true
        super.init(identifier: identifier)
    }

    /// A placeholder board for `identifier`.
    public init(identifier: BoardID, message: String? = nil, handler: ((Any?) -> Void)? = nil) {
        self.message = message
        self.handler = handler
        isPlaceholder = false
        super.init(identifier: identifier)
    }

    /// Runs the handler with the option.
    public func activate(withOption option: Any?) { handler?(option) }

    /// A placeholder is never gated.
    public func shouldBypassGatewayBarrier() -> Bool { true }
}
