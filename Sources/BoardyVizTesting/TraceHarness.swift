import BoardyCore
import BoardyTrace

/// A motherboard's world for a test: a virtual clock (`VirtualScheduler`), a runtime on it, and
/// a recorder of every event, as boardy-viz's own tests use. Build motherboards on it, drive them,
/// run the clock, then assert on ``lines`` (one `TraceEvent.testLine` per event) or on the
/// recorder's trace (golden files, replay).
///
/// ```swift
/// func checkout(_ runtime: BoardyRuntime) -> Motherboard {
///     let mb = Motherboard(boards: [CartBoard(), PaymentBoard()], runtime: runtime)
///     mb.registerFlowSteps(.cart ->> .payment)
///     return mb
/// }
///
/// @Test func checkoutReplays() throws {
///     let h = TraceHarness()
///     let mb = checkout(h.runtime)
///     mb.stimulate(.activate(.cart, input: "c1"))
///     h.scheduler.run()
///     #expect(h.lines.contains("activation.performed payment \"c1\""))
///     try expectReplay(h.trace(of: mb)) { runtime in ReplayTarget(mainboard: checkout(runtime)) }
/// }
/// ```
public struct TraceHarness {
    /// Every event, in order.
    public let recorder = TraceRecorder()
    /// The virtual clock: nothing runs until it runs (`run()`, `advance(by:)`).
    public let scheduler = VirtualScheduler()
    /// The runtime the harness's motherboards share, on ``scheduler``, reporting to ``recorder``.
    public let runtime: BoardyRuntime

    /// A fresh clock, runtime and recorder; a misuse of Boardy's API is handled as `misuse`
    /// says (Boardy's trap by default).
    public init(misuse: MisusePolicy = .trap) {
        runtime = BoardyRuntime(scheduler: scheduler, observer: recorder, misuse: misuse)
    }

    /// A motherboard on the harness's runtime with `boards` installed and `producer` for the rest.
    public func motherboard(_ boards: [any ActivatableBoard] = [], producer: BoardProducer? = nil) -> Motherboard {
        Motherboard(boards: boards, boardProducer: producer, runtime: runtime)
    }

    /// What the harness recorded, with `mainboard`'s header (its definition's fingerprint):
    /// ready for a golden file (`expectGoldenTrace`) or a replay (`expectReplay`).
    public func trace(of mainboard: Motherboard) -> Trace {
        Trace(header: mainboard.traceHeader(), events: recorder.events)
    }

    /// The events so far, one `TraceEvent.testLine` each.
    public var lines: [String] { recorder.events.map(\.testLine) }
}

extension TraceEvent {
    /// The event in one short line for assertions: its kind, its board and what matters of it
    /// (`activation.requested pay from cart "c1"`, `flow.routed cart "c1" activate pay`), its
    /// extra fields as JSON, and `[path]` first for events outside `main`.
    public var testLine: String {
        var s = kind
        switch body {
        case .activationRequested(let b, let source, let input):
            s += " \(b)"
            if let source { s += " from \(source)" }
            if let input { s += " \(input)" }
        case .activationPerformed(let b, let input):
            s += " \(b)"
            if let input { s += " \(input)" }
        case .outputSent(let b, let o): s += " \(b) \(o)"
        case .flowRouted(let from, let o, let to, let action): s += " \(from) \(o) \(action)" + (to.map { " \($0)" } ?? "")
        case .boardCompleted(let b, let success): s += " \(b) \(success.map(String.init) ?? "-")"
        case .activationCancelled(let b, let reason): s += " \(b) \(reason)"
        case .commandSent(let b, let c): s += " \(b) \(c)"
        case .stimulus(let action, let fields): s += " \(action) \(JSONValue.object(fields))"
        default: s += " " + (body.board ?? "")
        }
        if !extra.isEmpty { s += " " + JSONValue.object(extra).jsonText }
        if mb != MotherboardPath.main.rawValue { s = "[\(mb)] " + s }
        return s
    }
}
