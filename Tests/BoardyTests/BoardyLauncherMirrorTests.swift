import Boardy
import Foundation
import Testing

/// Mirrors of Boardy's LauncherTests (1.63.1): URL opener plugins and the gateway exemption's
/// two spellings, each named after the case and written from what it checks.
@Suite("Mirrors of Boardy's LauncherTests")
struct BoardyLauncherMirrorTests {
    /// Sends what it is activated with.
    final class Spy: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = String
        typealias OutputType = String
        func activate(withGuaranteedInput input: String) { sendOutput(input) }
    }

    struct SpyModule: ModulePlugin {
        let identifier: BoardID
        func apply(for main: any MainComponent) { main.producer.registerBoard(identifier) { Spy(identifier: $0) } }
    }

    struct SpyOpener: GuaranteedURLOpenerPlugin {
        let scheme: String
        var name: String { scheme + "-plugin" }
        func willOpen(url: URL) -> URLOpeningOption<String> {
            if let host = url.host, url.scheme == scheme { return .yes(host) }
            return .no
        }
        func mainboard(_ mainboard: any FlowMotherboard, openWith parameter: String) {
            mainboard.activation("test", with: String.self).activate(with: parameter)
        }
    }

    final class Seen {
        var x: String?
        var z = false
    }

    func launcher(_ seen: Seen) -> PluginLauncher {
        PluginLauncher.with(options: .default)
            .install(plugin: SpyModule(identifier: "test"))
            .instantiate { mainboard in
                mainboard.matchedFlow("test", with: String.self).addTarget(seen) { seen, value in seen.x = value }
            }
            .installURLOpenerPlugin(name: "xxx-plugin", condition: { url -> URLOpeningOption<String> in
                if let host = url.host, url.scheme == "xxx" { return .yes(host) }
                return .no
            }, handler: { mainboard, parameter in mainboard.activation("test", with: String.self).activate(with: parameter) })
            .install(urlOpenerPluginsBuilder: {
                SpyOpener(scheme: "yyy")
                SpyOpener(scheme: "zzz")
            })
            .installURLOpenerPlugin(name: "zzz-block-plugin", condition: { $0.scheme == "zzz" }, handler: { [seen] _ in seen.z = true })
    }

    @Test("LauncherTests.testBlockURLOpenerPlugin")
    func blockPlugin() {
        let seen = Seen()
        let matched = launcher(seen).open(link: "xxx://localhost")
        #expect(matched == ["xxx-plugin"])
        #expect(seen.x == "localhost")
    }

    @Test("LauncherTests.testURLOpenerPlugin")
    func guaranteedPlugin() {
        let seen = Seen()
        let matched = launcher(seen).open(link: "yyy://localhost")
        #expect(matched == ["yyy-plugin"])
        #expect(seen.x == "localhost")
    }

    @Test("LauncherTests.testMultipleURLOpenerPlugin")
    func severalPluginsAllOpen() {
        let seen = Seen()
        let matched = launcher(seen).open(link: "zzz://localhost")
        #expect(matched == ["zzz-plugin", "zzz-block-plugin"])
        #expect(seen.x == "localhost")
        #expect(seen.z)
    }

    @Test("LauncherTests.testMultipleURLOpenerReturnsAllMatchedCandidatesWhileOnlySelectionExecutes")
    func selectionChooses() {
        let seen = Seen()
        var selected: [String] = []
        let l = launcher(seen).setURLOpenerSelectionHandler { _, _, candidates, select in
            let chosen = Array(candidates.suffix(1))
            selected = chosen.map(\.name)
            select(chosen)
        }
        #expect(l.open(link: "zzz://localhost") == ["zzz-plugin", "zzz-block-plugin"])
        #expect(selected == ["zzz-block-plugin"])
        #expect(seen.x == nil)
        #expect(seen.z)
    }

    @Test("path patterns, validation and the not-found handler (Boardy's URL opener rules)")
    func pathsValidationNotFound() {
        var opened: [String: String] = [:]
        var missing: [String] = []
        let l = PluginLauncher.with(options: .default).initialize()
            .installURLOpenerPlugin(matchingPath: "/article/{id}") { _, p in opened = p }
            .setURLNotFoundHandler { _, url in missing.append(url.absoluteString) }
        #expect(l.open(link: "app://host/article/42?ref=mail").count == 1)
        #expect(opened == ["id": "42", "ref": "mail"])
        #expect(l.open(link: "app://host/other").isEmpty)
        #expect(missing == ["app://host/other"])
        _ = l.setURLOpeningValidator { _ in .denied }
        #expect(l.open(link: "app://host/article/7").isEmpty)
        #expect(opened["id"] == "42", "a denied URL opens nothing")
        #expect(missing.count == 2, "denied, with no denied handler of its own, runs the not-found handler")
    }

    /// Installs an exempt gateway registration for a destination and activates it through the
    /// launcher: the destination gets its input.
    func exemptLetsTheDestinationThrough(_ registration: GatewayBarrierRegistration, destination: BoardID) -> String? {
        let seen = Seen()
        let l = PluginLauncher.with(options: .default)
            .install(plugin: SpyModule(identifier: destination))
            .install(gatewayBarrier: registration, for: destination)
            .instantiate { mainboard in
                mainboard.matchedFlow(destination, with: String.self).addTarget(seen) { seen, value in seen.x = value }
            }
        l.activateNow { $0.activation(destination, with: String.self).activate(with: "allowed") }
        return seen.x
    }

    @Test("LauncherTests.testCleanGatewayBarrierExemptCompletesAndAllowsActivation")
    func cleanExempt() {
        #expect(exemptLetsTheDestinationThrough(.exempt, destination: "gateway-exempt-destination") == "allowed")
    }

    /// Deprecated itself, so that using Boardy's deprecated zero-width spelling is not a warning.
    @available(*, deprecated, message: "exercises Boardy's deprecated zero-width spelling of exempt on purpose")
    @Test("LauncherTests.testLegacyZeroWidthGatewayBarrierExemptBehavesLikeTheCleanSpelling")
    func legacyZeroWidthExempt() {
        #expect(exemptLetsTheDestinationThrough(.​exempt, destination: "gateway-legacy-exempt-destination") == "allowed")
    }
}
