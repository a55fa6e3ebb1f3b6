// `import Boardy`, as in Boardy: one import for the engine (boards, motherboards, flows,
// barriers, producers, plugins), ComponentKit (task, block task, result task, flow and barrier
// boards) and the trace model the engine reports to. The split behind it (BoardyCore,
// BoardyComponentKit, BoardyTrace) keeps each layer usable on its own; apps import this.
@_exported import BoardyComponentKit
@_exported import BoardyCore
@_exported import BoardyTrace
