// Boardy's names for what `Motherboard` does (`MotherboardType`'s requirements and Boardy's
// spellings), kept apart from the engine's own API as swift-syntax keeps its compatibility layers.

extension Motherboard {
    /// The installed boards, in installation order, then, as Boardy's barrier boards, the
    /// barrier runs this motherboard has open (see ``ActivatableBarrierBoard``).
    public var boards: [any ActivatableBoard] {
        let own = (installed.values + placeholders.values.map { $0 as any EngineBoard }).sorted { $0.installOrder < $1.installOrder }.map(\.appBoard)
        guard let runtime, !runtime.barriers.isEmpty else { return own }
        return own + runtime.barriers.views(ownedBy: self)
    }

    /// Activates board `identifier` with `option` (Boardy's name for ``activate(_:with:)``).
    public func activateBoard(identifier: BoardID, withOption option: Any?) { activate(identifier, with: option) }

    /// Installs `board` (Boardy's name for ``installBoard(_:)``). As Boardy's, a debug build
    /// traps when it is called off the main thread or with an id already installed, after a
    /// `misuse` event (see ``MisusePolicy``); a release build installs it, replacing the other.
    public func addBoard(_ board: any ActivatableBoard) {
        if runtime?.misusePolicy != .ignore {
            if !isMainThread() {
                BoardyMisuse(
                    .offMainThread, board: board.identifier,
                    message: "🔥 [Boardy] addBoard(_:) was called off the main thread.\nMotherboard board and flow storage is not synchronized; mutate it from the main thread."
                ).report(runtime: runtime, mb: path)
            }
            if getBoard(identifier: board.identifier) != nil {
                BoardyMisuse(
                    .duplicateBoard, board: board.identifier,
                    message: "\(String(describing: self)) \n🔥 Board with identifier \(board.identifier) was already added to motherboard \(self)."
                ).report(runtime: runtime, mb: path)
            }
        }
        installBoard(board)
    }

    /// Uninstalls the board `identifier` without completing it: no completion is traced and no
    /// completion flow runs (Boardy's `removeBoard(withIdentifier:)`).
    public func removeBoard(withIdentifier identifier: BoardID) {
        placeholders[identifier] = nil
        guard let board = installed.removeValue(forKey: identifier) else { return }
        (board as? ForeignBoard)?.release(from: self)
        board.host = nil
        board.formerMotherboard = self
        runtime?.keepAlive(board)
    }

    /// The installed board `identifier` (or the barrier board of an open barrier run of this
    /// motherboard), if any; never produces one.
    public func getBoard(identifier: BoardID) -> (any ActivatableBoard)? {
        if let board = installed[identifier] { return board.appBoard }
        guard let runtime, !runtime.barriers.isEmpty else { return nil }
        return runtime.barriers.views(ownedBy: self).first { $0.identifier == identifier }
    }

    /// The installed board `identifier`, or one produced and installed now.
    public func getOrProduceBoard(identifier: BoardID) -> (any ActivatableBoard)? { (installed[identifier] ?? produce(identifier))?.appBoard }

    /// The gateway board the producer registers for `identifier` (Boardy's `registerGatewayBoard`).
    public func getGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)? { boardProducer?.produceGatewayBoard(identifier: identifier) }

    /// Uninstalls every board.
    public func clearActiveBoards() {
        for id in installed.liveKeys { removeBoard(withIdentifier: id) }
    }

    /// Puts the motherboard and its boards into a root context (Boardy's `putIntoContext(_:)`).
    public func putIntoContext(_ context: AnyObject) { install(into: context) }

    /// The motherboard's path, for debugging.
    public var debugDescription: String { "Motherboard(\(path))" }

    /// Receives what `board` sends when it calls Boardy's `sendToMotherboard(data:)`.
    public func board(_ sender: any IdentifiableBoard, didSendData data: Any?) {
        // A board of the app's own that is not a Board sends as the carrier the engine holds.
        guard let board = sender as? Board ?? (installed[sender.identifier] as? ForeignBoard).flatMap({ $0.wrapped === sender ? $0 : nil }) else { return }
        // A request or command model goes on to the flows as the board sent it.
        let model: Any? = data is any BoardInputModel || data is any BoardCommandModel ? data : nil
        receive(.from(data), from: board, model: model)
    }
}
