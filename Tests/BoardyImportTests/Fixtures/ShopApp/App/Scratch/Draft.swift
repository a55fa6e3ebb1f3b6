import Boardy

/// In the project, but in no target's Sources phase: not compiled, not the app.
enum Draft {
    static func register(_ producer: BoardDynamicProducer) {
        producer.registerBoard("pub.draft.Board") { identifier in DraftBoard(identifier: identifier) }
    }
}
