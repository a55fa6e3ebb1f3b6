import BoardyCore
@_exported import BoardyReplay
import BoardyTrace
import Foundation
import Testing

/// Replays the trace file at `tracePath` against a motherboard assembled in Swift, and records a
/// test issue with the divergence report (first differing `seq`, expected vs actual, the fields
/// that differ, the causes) when it does not come out the same.
///
/// ```swift
/// @Test func checkoutStillBehaves() throws {
///     try expectReplay(of: "Fixtures/checkout.jsonl") { runtime in
///         ReplayTarget(mainboard: CheckoutFlow.build(runtime: runtime))
///     }
/// }
/// ```
///
/// Boards whose behaviour came from outside (a login screen completing, a user's input) are
/// driven by the trace's recorded stimuli. Returns the result, for further checks.
@discardableResult
public func expectReplay(
    of tracePath: String, options: Replayer.Options = Replayer.Options(), sourceLocation: SourceLocation = #_sourceLocation,
    assemble: (BoardyRuntime) throws -> ReplayTarget
) throws -> ReplayResult {
    let result = try Replayer.replay(tracePath: tracePath, options: options, assemble: assemble)
    if !result.isSame {
        Issue.record(Comment(rawValue: result.description), sourceLocation: sourceLocation)
    }
    return result
}

/// Replays a trace in memory against a motherboard assembled in Swift; see
/// ``expectReplay(of:options:sourceLocation:assemble:)``.
@discardableResult
public func expectReplay(
    _ trace: Trace, name: String = "<trace>", options: Replayer.Options = Replayer.Options(),
    sourceLocation: SourceLocation = #_sourceLocation, assemble: (BoardyRuntime) throws -> ReplayTarget
) throws -> ReplayResult {
    let result = try Replayer.replay(trace, traceName: name, options: options, assemble: assemble)
    if !result.isSame {
        Issue.record(Comment(rawValue: result.description), sourceLocation: sourceLocation)
    }
    return result
}

extension ReplayResult: CustomTestStringConvertible {
    /// The whole report, so `#expect(result.isSame)` failures show it.
    public var testDescription: String { description }
}
