import Boardy

/// Excluded from the target: not compiled.
final class OldCartBoard: Board {
    func register(_ producer: BoardDynamicProducer) {
        producer.registerBoard("mod.Shopping.OldCart") { OldCartBoard(identifier: $0) }
    }
}
