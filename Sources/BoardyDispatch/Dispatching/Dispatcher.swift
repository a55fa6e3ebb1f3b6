import BoardyCore

/// Where dispatches go (a Tealium dispatcher such as `collect`): any Swift object.
public protocol Dispatcher: AnyObject {
    /// The dispatcher's id (scopes name it).
    var id: String { get }
    /// The most dispatches it takes in one batch.
    var dispatchLimit: Int { get }
    /// Sends a batch; calls `completion` once it is done (at once, or later through the
    /// context's scheduler).
    func dispatch(_ events: [JSONValue], completion: @escaping () -> Void)
    /// Called once when the dispatcher joins a manager.
    func attach(to context: DispatchContext)
}

extension Dispatcher {
    /// Dispatchers that need no context ignore it.
    public func attach(to context: DispatchContext) {}
}

/// A dispatcher for simulations: it keeps what it received and completes each batch at once or
/// after `delay` on the virtual clock.
public final class SimulatedDispatcher: Dispatcher {
    /// The dispatcher's id (scopes name it).
    public let id: String
    /// The most dispatches it takes in one batch (at least 1).
    public let dispatchLimit: Int
    /// How long a batch takes.
    public let delay: TraceDuration
    /// The batches received, in order.
    public private(set) var received: [[JSONValue]] = []
    private weak var context: DispatchContext?

    /// A dispatcher `id` taking at most `dispatchLimit` (at least 1) per batch.
    public init(id: String, dispatchLimit: Int = 1, delay: TraceDuration = .zero) {
        self.id = id
        self.dispatchLimit = max(1, dispatchLimit)
        self.delay = delay
    }

    /// How many events it received in all.
    public var sentCount: Int { received.reduce(0) { $0 + $1.count } }

    /// Keeps the context, whose scheduler times a delayed batch.
    public func attach(to context: DispatchContext) { self.context = context }

    /// Keeps the batch, then completes it at once, or after ``delay`` on the context's scheduler.
    public func dispatch(_ events: [JSONValue], completion: @escaping () -> Void) {
        received.append(events)
        if delay.microseconds == 0 || context == nil {
            completion()
        } else {
            context?.schedule(after: delay, completion)
        }
    }
}

extension DispatchContext {
    /// Runs `action` after `delay` on the scheduler, traced as caused by what runs now.
    public func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) {
        manager.runtime.scheduleTraced(after: delay, action)
    }
}
