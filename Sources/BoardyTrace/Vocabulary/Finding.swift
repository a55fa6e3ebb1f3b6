/// One thing a static check found: in a scenario (`StaticCheck`) or in an app's sources
/// (`ImportCheck`). `boardy-viz check` prints it as text, JSON or SARIF.
public struct Finding: Sendable, Hashable {
    /// Errors make `check` exit 3; warnings do not.
    public enum Severity: String, Sendable, CaseIterable { case error, warning }

    /// What a finding is about, as a stable code (the SARIF rule id and the JSON `code`).
    public enum Code: String, Sendable, CaseIterable {
        /// Boards each waiting on the next's gate, round to the first: none can ever activate.
        case barrierLoop = "barrier-loop"
        /// A board gated by itself (an import finding; a scenario's is a one-board loop).
        case selfGated = "self-gated"
        /// A gate with no step (or code) that completes it: boards behind it wait for ever.
        case gateNeverCompletes = "gate-never-completes"
        /// Boards activating each other round a cycle: an error when synchronous, a warning when
        /// delayed.
        case runawayCycle = "runaway-cycle"
        /// A board nothing activates.
        case unreachableBoard = "unreachable-board"
        /// A dispatch barrier scoped to a dispatcher that is not declared.
        case unknownDispatcher = "unknown-dispatcher"
        /// Ids that look the same on screen but are different strings.
        case confusableIDs = "confusable-ids"
        /// An app's sources of which the import understood less than its threshold: the other
        /// findings are on the understood part only.
        case partlyUnderstood = "partly-understood"
    }

    /// Error or warning.
    public var severity: Severity
    /// What kind of finding it is.
    public var code: Code
    /// What is wrong, naming the boards (and the cycle), with `file:line` for sources.
    public var message: String
    /// How to fix it.
    public var suggestion: String
    /// The boards involved (a scenario's findings).
    public var boards: [BoardID]
    /// The places in the code (an app's findings).
    public var sources: [CodeLocation]

    /// A finding.
    public init(severity: Severity, code: Code, message: String, suggestion: String, boards: [BoardID] = [], sources: [CodeLocation] = []) {
        self.severity = severity
        self.code = code
        self.message = message
        self.suggestion = suggestion
        self.boards = boards
        self.sources = sources
    }
}
