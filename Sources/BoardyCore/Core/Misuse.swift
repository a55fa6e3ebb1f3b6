import Foundation

/// What a runtime does when Boardy's API is misused where Boardy traps (a duplicate `addBoard`,
/// a typed flow handed the wrong type, an interaction with a board that is not installed, ...).
public enum MisusePolicy: Sendable {
    /// As Boardy: a `misuse` event is recorded (and written out), then the process traps as
    /// Boardy's does: an `assertionFailure` in a debug build of this library, a
    /// `preconditionFailure` in every build. Where an assertion does not trap (a release build),
    /// the call goes on as in Boardy's release build. The default.
    case trap
    /// The `misuse` event is recorded and the call goes on as in Boardy's release build, in
    /// every build (a precondition's fallback is this library's: see each case).
    case record
    /// Nothing is recorded and nothing traps: the engine goes on as it always has. The tools
    /// use it (the simulator, replay, the explorer): their input is checked before it runs, and
    /// their traces stay as they were.
    case ignore
}

/// A misuse of Boardy's API that Boardy traps on, as a `misuse` event records it.
public struct BoardyMisuse: Sendable, Equatable {
    /// What was misused: the `misuse` field of the event.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The name in traces.
        public let rawValue: String
        /// A kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// `addBoard(_:)` with an id already installed (Boardy: `assert`, DEBUG).
        public static let duplicateBoard = Kind(rawValue: "duplicate-board")
        /// `addBoard(_:)` off the main thread (Boardy: `assert`, DEBUG).
        public static let offMainThread = Kind(rawValue: "off-main-thread")
        /// `interactWithBoard` naming a board that is not installed (Boardy: `assertionFailure`).
        public static let boardNotInstalled = Kind(rawValue: "board-not-installed")
        /// `interactWithBoard` naming a board that is not an ``InteractableBoard``
        /// (Boardy: `assertionFailure`).
        public static let notInteractable = Kind(rawValue: "not-interactable")
        /// A typed flow handed data of another type, or nil (Boardy: `assertionFailure`).
        public static let flowTypeMismatch = Kind(rawValue: "flow-type-mismatch")
        /// A ``GuaranteedBoard`` activated with an option it cannot convert (Boardy:
        /// `assertionFailure`).
        public static let inputMismatch = Kind(rawValue: "input-mismatch")
        /// A ``GuaranteedCommandBoard`` sent a command of another type (Boardy:
        /// `assertionFailure`).
        public static let commandTypeMismatch = Kind(rawValue: "command-type-mismatch")
        /// `serviceMap` of a board installed in no motherboard (Boardy: `preconditionFailure`,
        /// every build).
        public static let serviceMapWithoutMotherboard = Kind(rawValue: "service-map-without-motherboard")
        /// `rootViewController` of a board put into no context (Boardy: `assertionFailure`).
        public static let noContext = Kind(rawValue: "no-context")
    }

    /// How Boardy traps on it.
    public enum Trap: String, Sendable {
        /// `assert`/`assertionFailure`: a debug build traps, a release build goes on.
        case assertion
        /// `preconditionFailure`: every build traps.
        case precondition
    }

    /// What was misused.
    public let kind: Kind
    /// The board the misuse names, if any.
    public let board: BoardID?
    /// How Boardy traps on it.
    public let trap: Trap
    /// Boardy's own message for it.
    public let message: String

    /// A misuse of `kind` naming `board`, trapping as `trap`, with Boardy's `message`.
    public init(_ kind: Kind, board: BoardID?, trap: Trap = .assertion, message: String) {
        self.kind = kind
        self.board = board
        self.trap = trap
        self.message = message
    }

    /// The event's fields (besides `seq`, `t`, `kind`, `mb`, `cause`).
    var fields: JSONObject {
        var o: JSONObject = ["misuse": .string(kind.rawValue)]
        if let board { o["board"] = .string(board.rawValue) }
        o["trap"] = .string(trap.rawValue)
        o["message"] = .string(message)
        return o
    }

    /// Reports the misuse as `runtime`'s policy says (Boardy's trap when there is no runtime:
    /// a board or flow used outside any motherboard). Returns when the call is to go on.
    /// Not inlinable: the assertion must trap as this library was built, as Boardy's does.
    @usableFromInline
    func report(runtime: BoardyRuntime?, mb: MotherboardPath?, file: StaticString = #fileID, line: UInt = #line) {
        if let runtime {
            switch runtime.misusePolicy {
            case .ignore: return
            case .record, .trap:
                runtime.recordMisuse(self, mb: mb ?? .main)
                if runtime.misusePolicy == .record { return }
            }
        }
        switch trap {
        case .assertion: assertionFailure(message, file: file, line: line)
        case .precondition: preconditionFailure(message, file: file, line: line)
        }
    }
}

extension BoardyRuntime {
    /// Records `misuse` as a `misuse` event and hands it on at once, through the observer to
    /// the file: the process may trap right after.
    func recordMisuse(_ misuse: BoardyMisuse, mb: MotherboardPath) {
        guard isTracing else { return }
        recordEvent(mb: mb, .unknown(kind: EventKind.misuse.rawValue, fields: misuse.fields))
        flushEvents()
        observer?.flushBeforeTrap()
    }
}

/// Whether `data` is one of Boardy's own models that typed flows and typed boards pass over
/// without complaint (Boardy's `isSilentData`): a flow action, an activation or command model,
/// a completion.
@usableFromInline
func isSilentData(_ data: Any?) -> Bool {
    data is any BoardFlowAction || data is any BoardInputModel || data is any BoardCommandModel || data is CompleteAction
}

/// Where a board's misuse is reported: the runtime and path of the motherboard it is installed
/// in, or was last.
extension ActivatableBoard {
    var misuseHome: (BoardyRuntime?, MotherboardPath?) {
        guard let board = self as? Board else {
            // A board of the app's own that is not a Board: its motherboard is its delegate.
            if let mb = delegate as? Motherboard { return (mb.runtime, mb.path) }
            return (nil, nil)
        }
        if let host = board.host { return (host.runtime, host.path) }
        if let (runtime, path) = board.lastHome { return (runtime, path) }
        return (nil, nil)
    }
}

/// Whether this thread is the main thread (Boardy's DEBUG check on `addBoard`).
func isMainThread() -> Bool { Thread.isMainThread }

extension ActivatableBoard {
    /// What the board was put into (Boardy's `InstallableBoard.rootViewController`, without
    /// UIKit: the root context itself, a window or view controller in an app, any object
    /// headless). As Boardy's, reading it before the board has a context traps (an assertion:
    /// a debug build); a release build gets a fresh object.
    public var rootViewController: AnyObject {
        if let context { return context }
        let (runtime, path) = misuseHome
        BoardyMisuse(
            .noContext, board: identifier,
            message: "\(String(describing: self)) \n🔥 [CONTEXT NOT FOUND] Could not access `rootViewController` because it is not set or deallocated. Make sure install \(self) into a `rootViewController` before accessing it."
        ).report(runtime: runtime, mb: path)
        return NSObject()
    }
}
