import BoardyCore
import BoardyDispatch

/// What a replay drives: a fresh engine, built from the same definition as the recorded run, on
/// a virtual clock, reporting to the observer the replayer gives it.
///
/// Build it from a scenario (`ReplayTarget.scenario(_:observer:)`, from BoardyVizSimulation) or assemble it in Swift:
///
/// ```swift
/// let result = try Replayer.replay(trace) { runtime in
///     let mainboard = Motherboard(boards: [cart, ordering], runtime: runtime)
///     mainboard.registerFlowSteps("pubShoppingCart" ->> "pubOrdering")
///     return ReplayTarget(mainboard: mainboard)
/// }
/// ```
public struct ReplayTarget {
    /// The main motherboard: `activate`, `complete` and `command` stimuli go to it, or to the
    /// nested motherboard their `mb` names.
    public var mainboard: Motherboard
    /// The dispatch pipeline for `network`, `track`, `flush` and `configure` stimuli, if any.
    public var dispatch: DispatchManager?
    /// The definition fingerprint to compare with the trace header's (the verdict); by default
    /// the motherboard's own (`Motherboard.definitionFingerprint`).
    public var definition: String?

    /// The name of the scenario (or flow) it was built from, if it has one: a replay names both
    /// scenarios when a trace was recorded from another.
    public var scenarioName: String?

    /// More root motherboards beside ``mainboard`` (as a launcher creates them), on the same
    /// runtime: stimuli recorded under their names go to them.
    public var otherRoots: [Motherboard] = []

    /// The latest time the target's inputs can come (a scenario's script, a ranged step at
    /// the end of its range): the run horizon counts from it, as it did in the recorded run,
    /// even when the trace lacks later inputs (a run cut at `until` or stopped by a bound).
    /// Nil: from the trace's last stimulus.
    public var lastStimulus: TraceTime?

    /// A target around `mainboard`, whose runtime must run on a `VirtualScheduler`;
    /// `scenarioName` names what it was built from.
    public init(mainboard: Motherboard, dispatch: DispatchManager? = nil, definition: String? = nil, scenarioName: String? = nil) {
        self.scenarioName = scenarioName
        self.mainboard = mainboard
        self.dispatch = dispatch
        self.definition = definition ?? mainboard.definitionFingerprint
    }

    /// The virtual clock the target runs on.
    var scheduler: VirtualScheduler? { mainboard.runtime?.scheduler as? VirtualScheduler }

    /// The motherboard at `path` (`main`, `main/pubPayment`, ...) as it is now, if it exists.
    func motherboard(at path: String) -> Motherboard? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, let root = ([mainboard] + otherRoots).first(where: { $0.path.rawValue == first }) else { return nil }
        parts.removeFirst()
        var mb = root
        // Board ids may contain "/": take the longest prefix that names an installed continuous board.
        while !parts.isEmpty {
            var found: Motherboard?
            for n in stride(from: parts.count, through: 1, by: -1) {
                let id = BoardID(parts[0..<n].joined(separator: "/"))
                if let c = mb.board(id) as? ContinuousBoard {
                    found = c.continuousMotherboard
                    parts.removeFirst(n)
                    break
                }
            }
            guard let next = found else { return nil }
            mb = next
        }
        return mb
    }
}
