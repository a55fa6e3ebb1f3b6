extension FlowManageable {
    /// Passes every flow action this motherboard's boards send on to `board`, as its own
    /// (Boardy's `forwardActionFlow(to:)`): how a sub-motherboard reports up to its parent board.
    public func forwardActionFlow(to board: any IdentifiableBoard) {
        registerGeneralFlow { [weak board] (action: any BoardFlowAction) in
            guard let board else { return }
            if let b = board as? Board { b.sendFlowAction(action) } else { board.delegate?.board(board, didSendData: action) }
        }
    }

    /// Passes every activation this motherboard's boards ask for (a ``BoardInputModel``) on to
    /// `board`, which asks its own motherboard (Boardy's `forwardActivationFlow(to:)`).
    public func forwardActivationFlow(to board: any IdentifiableBoard) {
        registerGeneralFlow { [weak board] (input: any BoardInputModel) in board?.nextToBoard(model: input) }
    }
}

extension ActivatableBoardProducer {
    /// A motherboard of its own producing with this producer, with `elementsBuilder`'s boards
    /// installed; its flow actions go to `parent` (Boardy's `produceContinuousMotherboard`).
    public func produceContinuousMotherboard(
        identifier: BoardID, from parent: (any IdentifiableBoard)? = nil,
        elementsBuilder: (any ActivatableBoardProducer) -> [any ActivatableBoard] = { _ in [] }
    ) -> any FlowMotherboard {
        let motherboard = Motherboard(identifier: identifier, boardProducer: self, boards: elementsBuilder(self))
        if let parent { motherboard.forwardActionFlow(to: parent) }
        return motherboard
    }
}

extension ModernContinuableBoard {
    /// Builds a sub-motherboard of this board's producer (flow actions forwarded to this
    /// board), configures it and puts it into `context`, which does not keep it alive (Boardy's
    /// `mountContinuousMotherboard(to:configurationBuilder:)`; hold it, or attach it).
    @discardableResult
    public func mountContinuousMotherboard(to context: AnyObject, configurationBuilder: (any FlowMotherboard) -> Void = { _ in }) -> any FlowMotherboard {
        let sub = producer.produceContinuousMotherboard(identifier: identifier.appending("continuous-main"), from: self)
        configurationBuilder(sub)
        sub.putIntoContext(context)
        return sub
    }

    /// Builds a sub-motherboard of the caller's own type from this board's producer and puts it
    /// into `context`.
    @discardableResult
    public func mountContinuousMotherboard<Mainboard: FlowMotherboard>(to context: AnyObject, build: (any ActivatableBoardProducer) -> Mainboard) -> Mainboard {
        let sub = build(producer)
        sub.putIntoContext(context)
        return sub
    }

    /// Mounts a sub-motherboard into `context` and makes `context` keep it alive (Boardy's
    /// `attachContinuousMotherboard`).
    @discardableResult
    public func attachContinuousMotherboard(to context: any AttachableObject, configurationBuilder: (any FlowMotherboard) -> Void = { _ in }) -> any FlowMotherboard {
        let sub = mountContinuousMotherboard(to: context, configurationBuilder: configurationBuilder)
        context.attachObject(sub)
        return sub
    }

    /// Mounts a sub-motherboard of the caller's own type into `context` and makes `context` keep
    /// it alive.
    @discardableResult
    public func attachContinuousMotherboard<Mainboard: FlowMotherboard>(to context: any AttachableObject, build: (any ActivatableBoardProducer) -> Mainboard) -> Mainboard {
        let sub = mountContinuousMotherboard(to: context, build: build)
        context.attachObject(sub)
        return sub
    }
}
