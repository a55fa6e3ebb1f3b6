// BlockTaskBoard: the parameter of one activation, with the handlers it alone is told through.

import BoardyCore

/// One activation of a block task board (Boardy's `BlockTaskParameter`): the input and the
/// handlers this activation alone is told through.
///
/// ```swift
/// BlockTaskParameter<String, [Product]>(input: query)
///     .onSuccess { board, products in show(products) }
///     .onCompletion { board, status in ... }
/// ```
public final class BlockTaskParameter<Input, Output>: TraceValueConvertible {
    /// Runs with the board and the output on success.
    public typealias SuccessHandler = (any ActivatableBoard, Output) -> Void
    /// Runs with the board and whether the task is processing.
    public typealias ProcessingHandler = (any ActivatableBoard, Bool) -> Void
    /// Runs with the board and the error on failure.
    public typealias ErrorHandler = (any ActivatableBoard, any Error) -> Void
    /// Runs with the board and how the task ended.
    public typealias CompletionHandler = (any ActivatableBoard, TaskCompletionStatus) -> Void

    /// The task's input.
    public let input: Input
    /// The success handler.
    public private(set) var successHandler: SuccessHandler?
    /// The processing handler.
    public private(set) var processingHandler: ProcessingHandler?
    /// The error handler.
    public private(set) var errorHandler: ErrorHandler?
    /// The completion handler.
    public private(set) var completionHandler: CompletionHandler?

    /// An activation with `input`.
    public init(input: Input) { self.input = input }

    /// Sets the success handler.
    @discardableResult
    public func onSuccess(_ handler: SuccessHandler?) -> Self {
        successHandler = handler
        return self
    }

    /// Sets the success handler, given the output.
    @discardableResult
    public func onSuccess(_ handler: ((Output) -> Void)?) -> Self {
        onSuccess(handler.map { h in { _, o in h(o) } })
    }

    /// Sets the success handler, with `target` held weakly.
    @discardableResult
    public func onSuccess<Target: AnyObject>(target: Target, action: ((Target, Output) -> Void)?) -> Self {
        onSuccess(action.map { a in { [weak target] _, o in if let target { a(target, o) } } })
    }

    /// Sets the processing handler.
    @discardableResult
    public func onProcessing(_ handler: ProcessingHandler?) -> Self {
        processingHandler = handler
        return self
    }

    /// Sets the processing handler, given whether the task is processing.
    @discardableResult
    public func onProcessing(_ handler: ((Bool) -> Void)?) -> Self {
        onProcessing(handler.map { h in { _, p in h(p) } })
    }

    /// Sets the processing handler, with `target` held weakly.
    @discardableResult
    public func onProcessing<Target: AnyObject>(target: Target, action: ((Target, Bool) -> Void)?) -> Self {
        onProcessing(action.map { a in { [weak target] _, p in if let target { a(target, p) } } })
    }

    /// Sets the error handler.
    @discardableResult
    public func onError(_ handler: ErrorHandler?) -> Self {
        errorHandler = handler
        return self
    }

    /// Sets the error handler, given the error.
    @discardableResult
    public func onError(_ handler: ((any Error) -> Void)?) -> Self {
        onError(handler.map { h in { _, e in h(e) } })
    }

    /// Sets the error handler, with `target` held weakly.
    @discardableResult
    public func onError<Target: AnyObject>(target: Target, action: ((Target, any Error) -> Void)?) -> Self {
        onError(action.map { a in { [weak target] _, e in if let target { a(target, e) } } })
    }

    /// Sets the completion handler.
    @discardableResult
    public func onCompletion(_ handler: CompletionHandler?) -> Self {
        completionHandler = handler
        return self
    }

    /// Sets the completion handler, given the status.
    @discardableResult
    public func onCompletion(_ handler: ((TaskCompletionStatus) -> Void)?) -> Self {
        onCompletion(handler.map { h in { _, s in h(s) } })
    }

    /// Sets the completion handler, with `target` held weakly.
    @discardableResult
    public func onCompletion<Target: AnyObject>(target: Target, action: ((Target, TaskCompletionStatus) -> Void)?) -> Self {
        onCompletion(action.map { a in { [weak target] _, s in if let target { a(target, s) } } })
    }

    /// Adds a success handler after the one set.
    @discardableResult
    public func appendingSuccessHandler(_ handler: @escaping SuccessHandler) -> Self {
        let previous = successHandler
        return onSuccess { b, o in
            previous?(b, o)
            handler(b, o)
        }
    }

    /// Adds an error handler after the one set.
    @discardableResult
    public func appendingErrorHandler(_ handler: @escaping ErrorHandler) -> Self {
        let previous = errorHandler
        return onError { b, e in
            previous?(b, e)
            handler(b, e)
        }
    }

    /// Adds a completion handler after the one set.
    @discardableResult
    public func appendingCompletionHandler(_ handler: @escaping CompletionHandler) -> Self {
        let previous = completionHandler
        return onCompletion { b, s in
            previous?(b, s)
            handler(b, s)
        }
    }

    /// Adds a processing handler after the one set.
    @discardableResult
    public func appendingProcessingHandler(_ handler: @escaping ProcessingHandler) -> Self {
        let previous = processingHandler
        return onProcessing { b, p in
            previous?(b, p)
            handler(b, p)
        }
    }

    /// The input, as a trace records it.
    public var traceValue: JSONValue { TraceValue.json(input) ?? .null }
}

extension BlockTaskParameter where Input: ExpressibleByNilLiteral {
    /// An activation with a nil input.
    public convenience init() { self.init(input: nil) }
}

extension BlockTaskParameter where Input == Void {
    /// An activation of a task that takes no input.
    public convenience init() { self.init(input: ()) }
}
