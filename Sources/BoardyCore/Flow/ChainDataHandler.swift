/// Handles data by its type, trying handlers in the order they were added (Boardy's
/// `ChainDataHandler`): `ChainDataHandler(self).with(dataType: Int.self) { … }.fallback()`.
public final class ChainDataHandler<Target: AnyObject> {
    /// The object handlers receive (held weakly).
    public weak var target: Target?
    private var handlers: [(Target, Any?) -> Bool] = []

    /// A chain whose handlers receive `target`.
    public init(_ target: Target) {
        self.target = target
    }

    /// Adds a handler for data of type `Value`.
    public func with<Value>(dataType _: Value.Type, handler: @escaping (Target, Value) -> Void) -> Self {
        handlers.append { target, data in
            guard let value = data as? Value else { return false }
            handler(target, value)
            return true
        }
        return self
    }

    /// Adds a handler for whatever no earlier handler took (by default it prints the data, as
    /// Boardy does in DEBUG builds).
    public func fallback(handler: @escaping (Target, Any?) -> Void = { target, data in
        #if DEBUG
            print(
                """
                ⚠️ [\(String(describing: ChainDataHandler.self))] fallback handling:
                🎯 Target: \(String(describing: target))
                🌸 Data: \(String(describing: data))
                """
            )
        #endif
    }) -> Self {
        handlers.append { target, data in
            handler(target, data)
            return true
        }
        return self
    }

    /// Gives `data` to the first handler that takes it; nothing when the target is gone.
    public func handle(data: Any?) {
        guard let target else { return }
        for handler in handlers where handler(target, data) { return }
        #if DEBUG
            print(
                """
                ⚠️ [\(String(describing: ChainDataHandler.self))] unhandled data:
                🎯 Target: \(String(describing: target))
                🌸 Data: \(String(describing: data))
                💡 No registered data type matched. Add `.with(dataType:handler:)` for it, or `.fallback()` to handle the rest.
                """
            )
        #endif
    }
}
