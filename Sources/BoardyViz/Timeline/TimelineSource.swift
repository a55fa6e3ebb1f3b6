import BoardyTrace
import BoardyVizCore

extension Timeline {
    /// Where a timeline takes its events from, by index in `seq` order: a trace's events, or a
    /// table's columns with lines decoded only where the timeline needs more.
    protocol Source {
        associatedtype Failure: Error
        var count: Int { get }
        /// The trace header's scenario.
        var scenario: String? { get }
        /// The trace header's clock.
        var clock: TraceHeader.Clock { get }
        func t(_ i: Int) -> TraceTime
        func seq(_ i: Int) -> Int
        /// The whole event (for a mark's title, kind and fields).
        func event(_ i: Int) throws(Failure) -> TraceEvent
        /// The lanes of the events at `indices`.
        func layout(including indices: [Int]) throws(Failure) -> LaneLayout
        /// The trace's spans.
        func spans() -> TraceSpans
    }

    struct EventsSource: Source {
        typealias Failure = Never
        let trace: Trace
        var count: Int { trace.events.count }
        var scenario: String? { trace.header.scenario }
        var clock: TraceHeader.Clock { trace.header.clock }
        func t(_ i: Int) -> TraceTime { trace.events[i].t }
        func seq(_ i: Int) -> Int { trace.events[i].seq }
        func event(_ i: Int) -> TraceEvent { trace.events[i] }
        func layout(including indices: [Int]) -> LaneLayout { LaneLayout(trace.events, including: indices) }
        func spans() -> TraceSpans { TraceSpans(trace.events) }
    }

    struct TableSource: Source {
        typealias Failure = TraceReadError
        let table: TraceTable
        var count: Int { table.count }
        var scenario: String? { table.header.scenario }
        var clock: TraceHeader.Clock { table.header.clock }
        func t(_ i: Int) -> TraceTime { table.times[i] }
        func seq(_ i: Int) -> Int { table.seqs[i] }
        func event(_ i: Int) throws(TraceReadError) -> TraceEvent { try table.event(at: i) }
        func layout(including indices: [Int]) throws(TraceReadError) -> LaneLayout { try LaneLayout(table: table, including: indices) }
        func spans() -> TraceSpans { TraceSpans(table) }
    }
}
