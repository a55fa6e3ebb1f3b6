// BlockTaskBoard: one task run as an asynchronous `Operation` (Boardy's `BlockTaskExecutionOperation`).

import BoardyCore
import Foundation

/// One task of a ``BlockTaskBoard`` as an asynchronous `Operation` (Boardy's
/// `BlockTaskExecutionOperation`, internal there; public here because Boardy's tests and apps that
/// drive a board's executor from an `OperationQueue` reach it).
///
/// `start()` runs the board's executor with the input; its completion goes to the board's task
/// `taskID` (if one runs) and finishes the operation. `cancel()` finishes it at once and calls the
/// executor's canceler exactly once, even when the executor hands it back only after the
/// cancellation; a completion after the cancellation is ignored, and a canceler handed back after
/// a completion is dropped.
// `@unchecked Sendable` (as Foundation's `Operation` subclasses must be): its mutable state is
// `state`, reached only under its lock; `taskID` and `input` never change after `init`, and
// `taskBoard` is a weak reference set once in `init`.
public final class BlockTaskExecutionOperation<In, Out>: Operation, @unchecked Sendable {
    // @unchecked: the mutable state is only reached under `state`'s lock; the board is held
    // weakly and only its thread-safe entry points are called.
    private enum Phase { case ready, executing, finished }

    private struct State {
        var phase = Phase.ready
        var canceler: BlockTaskCanceler?
        /// How the operation ended, once it has: by a cancellation or a completion.
        var endedByCancellation: Bool?
    }

    private let taskID: String
    private let input: In
    private weak var taskBoard: BlockTaskBoard<In, Out>?
    private let state = Locked(State())

    /// An operation that runs `taskBoard`'s executor with `input` for its task `taskID`.
    public init(taskID: String, input: In, taskBoard: BlockTaskBoard<In, Out>) {
        self.taskID = taskID
        self.input = input
        self.taskBoard = taskBoard
        super.init()
    }

    public override var isAsynchronous: Bool { true }
    public override var isExecuting: Bool { state.withLock { $0.phase == .executing } }
    public override var isFinished: Bool { state.withLock { $0.phase == .finished } }

    public override func start() {
        if isCancelled {
            end(byCancellation: true)
            return
        }
        let begins = state.withLock { s -> Bool in
            guard s.phase == .ready else { return false }
            s.phase = .executing
            return true
        }
        guard begins else { return }
        changed("isExecuting")
        guard let board = taskBoard else {
            end(byCancellation: false)
            return
        }
        let taskID = taskID
        let canceler = board.execute(input: input) { [weak self, weak board] result in
            guard let self, self.end(byCancellation: false) else { return }
            board?.finishExecuting(taskID: taskID, result: result)
        }
        let callNow = state.withLock { s -> Bool in
            switch s.endedByCancellation {
            case nil:
                s.canceler = canceler
                return false
            case let cancelled?: return cancelled
            }
        }
        if callNow { canceler.cancel() }
    }

    public override func cancel() {
        super.cancel()
        end(byCancellation: true)
    }

    /// Ends the operation unless it has ended already; true when this call ended it. A
    /// cancellation calls the canceler the executor has handed back, if it has.
    @discardableResult
    private func end(byCancellation cancelled: Bool) -> Bool {
        let outcome = state.withLock { s -> (won: Bool, wasExecuting: Bool, canceler: BlockTaskCanceler?) in
            guard s.endedByCancellation == nil else { return (false, false, nil) }
            s.endedByCancellation = cancelled
            let wasExecuting = s.phase == .executing
            s.phase = .finished
            defer { s.canceler = nil }
            return (true, wasExecuting, cancelled ? s.canceler : nil)
        }
        guard outcome.won else { return false }
        outcome.canceler?.cancel()
        if outcome.wasExecuting { changed("isExecuting") }
        changed("isFinished")
        return true
    }

    /// Tells observers (an `OperationQueue`) that `key` changed. The new value is already in
    /// place, which is what KVO needs of the "did" half; the "will" half only brackets it.
    private func changed(_ key: String) {
        willChangeValue(forKey: key)
        didChangeValue(forKey: key)
    }
}
