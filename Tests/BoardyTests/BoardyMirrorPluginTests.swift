import Boardy
import Testing

/// Mirrors of Boardy's PluginTests (1.63.1): a module builder plugin lives as long as the lazy
/// factory it registered, named after the case it mirrors and written from what it checks.
@Suite("Mirrors of Boardy's PluginTests")
struct BoardyMirrorPluginTests {
    final class Built: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    /// The component a plugin is applied to; it holds the producer without retaining it.
    final class Component: MainComponent {
        let options: MainOptions = .default
        let producer: any BoardDynamicProducer
        init(producer: any BoardDynamicProducer) { self.producer = producer }
    }

    /// A module builder plugin (a class, so its lifetime can be watched) that counts its builds.
    final class CountingBuilder: ModuleBuilderPlugin {
        let identifier: BoardID = "plugin-lifetime"
        private(set) var builds = 0

        func internalContinuousRegistrations(sharedComponent _: any SharedValueComponent, producer _: any ActivatableBoardProducer)
            -> [BoardRegistration]
        {
            []
        }

        func build(with identifier: BoardID, sharedComponent _: any SharedValueComponent, internalContinuousProducer _: any ActivatableBoardProducer)
            -> any ActivatableBoard
        {
            builds += 1
            return Built(identifier: identifier)
        }
    }

    @Test("PluginTests.testClassBuilderPluginIsRetainedForLazyFactoryLifetime")
    func builderLivesWithItsFactory() throws {
        var producer: BoardProducer? = BoardProducer()
        var component: Component? = Component(producer: producer!.boxed)
        var plugin: CountingBuilder? = CountingBuilder()
        weak let probe = plugin

        plugin?.apply(for: component!)
        plugin = nil
        try #require(probe != nil, "the registered factory keeps the plugin alive after its owner lets go")

        let board = producer?.produceBoard(identifier: "plugin-lifetime")
        #expect(board != nil)
        #expect(board is Built)
        #expect(probe?.builds == 1, "the board is built lazily, by the plugin")

        component = nil
        producer = nil
        #expect(probe == nil, "the plugin goes with the producer that held its factory")
    }
}
