// Differential probes (issue 46), continued: activation barriers and gateways, continuous boards
// and IO helpers, and edge cases. Copied with BoardyProbes.swift (see its header) and, like it,
// compiled against the real Boardy 1.63.1 and against ours.

import Boardy
import Foundation

extension BoardyProbes {
    /// Activation barriers and gateways (with the debug descriptions and watched contents beside them).
    static var barriersAndGateways: [(String, () -> [String])] { [
        ("activation-barrier-waits-for-gate", {
            final class Gated: LogBoard, ActivatableBoard {
                func activationBarrier(withOption option: Any?) -> ActivationBarrier? {
                    ioDestination("gate").activation(with: Any?.self).barrier()
                }
                func activate(withOption option: Any?) { log.add("gated ran \(String(describing: option))") }
            }
            final class Gate: LogBoard, ActivatableBoard {
                func activate(withOption option: Any?) { log.add("gate activated") }
            }
            let log = Log()
            let gate = Gate("gate", log)
            let mb = Motherboard(boards: [Gated("gated", log), gate])
            mb.activateBoard(identifier: "gated", withOption: 1)
            log.add("before release")
            gate.complete(true)
            return log.lines
        }),
        ("activation-barrier-gate-fails", {
            final class Gated: LogBoard, ActivatableBoard {
                func activationBarrier(withOption option: Any?) -> ActivationBarrier? {
                    ioDestination("gate").activation(with: Any?.self).barrier()
                }
                func activate(withOption option: Any?) { log.add("gated ran") }
            }
            let log = Log()
            let gate = Plain("gate", log)
            let mb = Motherboard(boards: [Gated("gated", log), gate])
            mb.activateBoard(identifier: "gated", withOption: 1)
            gate.complete(false)
            mb.activateBoard(identifier: "gated", withOption: 2)
            return log.lines
        }),
        ("board-debug-description", {
            let log = Log()
            let board = Plain("described", log)
            return board.debugDescription.split(separator: "\n").map(String.init)
        }),
        ("watched-contents", {
            let log = Log()
            let board = Plain("w", log)
            final class Page {}
            let page = Page()
            board.watch(content: page)
            var lines = ["available \(board.watchedContentIsAvailable)", "count \(board.availableWatchedContents(Page.self).count)"]
            board.resetWatchedContents()
            lines.append("after reset \(board.watchedContentIsAvailable)")
            return lines
        }),
        ("gateway-guards-and-exempts", {
            let log = Log()
            struct Plugin: ModulePlugin {
                let log: Log
                var identifier: BoardID { "plugin" }
                func apply(for main: MainComponent) {
                    main.producer.registerBoard("auth") { Plain($0, log) }
                    main.producer.registerBoard("pay") { Plain($0, log) }
                    main.producer.registerBoard("help") { Plain($0, log) }
                }
            }
            let launcher = PluginLauncher.with(options: .default)
                .install(plugin: Plugin(log: log))
                .install(gatewayBarrier: .registerWithActivation { barrier, option in
                    log.add("gate for \(String(describing: option))")
                    barrier.complete(true)
                })
                .install(gatewayBarrier: .exempt, for: "help")
                .instantiate()
            launcher.activateNow { $0.activateBoard(identifier: "pay", withOption: "p") }
            launcher.activateNow { $0.activateBoard(identifier: "help", withOption: "h") }
            // Type names print with their module: Boardy's `Boardy`, ours `BoardyCore` behind `Boardy`.
            return log.lines.map { $0.replacingOccurrences(of: "BoardyCore.", with: "Boardy.") }
        }),
        ("gateway-gate-fails", {
            let log = Log()
            struct Plugin: ModulePlugin {
                let log: Log
                var identifier: BoardID { "plugin" }
                func apply(for main: MainComponent) { main.producer.registerBoard("pay") { Plain($0, log) } }
            }
            let launcher = PluginLauncher.with(options: .default)
                .install(plugin: Plugin(log: log))
                .install(gatewayBarrier: .registerWithActivation { barrier, _ in
                    log.add("gate")
                    barrier.complete(false)
                })
                .instantiate()
            launcher.activateNow { $0.activateBoard(identifier: "pay", withOption: "p") }
            return log.lines
        }),
        ("unique-barrier-per-key", {
            final class Gated: LogBoard, ActivatableBoard {
                func activationBarrier(withOption option: Any?) -> ActivationBarrier? {
                    ioDestination("gate").activation(with: Any?.self).barrier(option: .unique(option as? String ?? ""))
                }
                func activate(withOption option: Any?) { log.add("ran \(String(describing: option))") }
            }
            let log = Log()
            let mb = Motherboard(boardProducer: BoardProducer(registrationsBuilder: { _ in
                BoardRegistration("gated") { Gated($0, log) }
                BoardRegistration("gate") { Plain($0, log) }
            }))
            mb.activateBoard(identifier: "gated", withOption: "k1")
            mb.activateBoard(identifier: "gated", withOption: "k1")
            mb.activateBoard(identifier: "gated", withOption: "k2")
            return log.lines
        }),
    ] }

    /// Continuous boards' inner producers, matched and removed flows, IO helpers, completers, result tasks, flow boards.
    static var continuousAndIO: [(String, () -> [String])] { [
        ("modern-continuable-inner-producer", {
            final class Outer: ModernContinuableBoard, ActivatableBoard {
                func activate(withOption option: Any?) { motherboard.activateBoard(identifier: "inner", withOption: option) }
            }
            let log = Log()
            let outer = Outer(identifier: "outer", boardProducer: BoardProducer(registrationsBuilder: { _ in BoardRegistration("inner") { Plain($0, log) } }))
            let mb = Motherboard(boards: [outer])
            mb.activateBoard(identifier: "outer", withOption: "x")
            return log.lines + ["inner boards \(outer.motherboard.boards.map(\.identifier.rawValue))"]
        }),
        ("continuous-inner-output-stays-inside", {
            final class Outer: ContinuousBoard, ActivatableBoard {
                func activate(withOption option: Any?) { motherboard.activateBoard(identifier: "inner", withOption: "in") }
            }
            let log = Log()
            let outer = Outer(identifier: "outer", motherboard: Motherboard(boards: [Echo("inner", log)]))
            let mb = Motherboard(boards: [outer])
            mb.registerGeneralFlow { (s: String) in log.add("main saw \(s)") }
            outer.motherboard.registerGeneralFlow { (s: String) in log.add("inner saw \(s)") }
            mb.activateBoard(identifier: "outer", withOption: nil)
            return log.lines
        }),
        ("register-flow-matched-identifiers", {
            let log = Log()
            let mb = Motherboard(boards: [Echo("a", log), Echo("b", log)])
            mb.registerFlow(matchedIdentifiers: ["a"], uniqueOutputType: String.self) { log.add("a said \($0)") }
            mb.activateBoard(identifier: "a", withOption: "1")
            mb.activateBoard(identifier: "b", withOption: "2")
            return log.lines
        }),
        ("remove-flow-by-identifier", {
            let log = Log()
            let mb = Motherboard(boards: [Echo("a", log)])
            let flow = BoardActivateFlow(identifier: "mine", matchedIdentifiers: ["a"], nextHandler: { log.add("flow \(String(describing: $0))") })
            mb.registerFlow(flow)
            mb.activateBoard(identifier: "a", withOption: "1")
            mb.removeFlow(by: "mine")
            mb.activateBoard(identifier: "a", withOption: "2")
            return log.lines
        }),
        ("chain-flow-by-type", {
            final class Target { var log: [String] = [] }
            let log = Log()
            let target = Target()
            let mb = Motherboard(boards: [Echo("a", log)])
            mb.registerChainFlow(matchedIdentifiers: ["a"], target: target)
                .handle(outputType: Int.self) { t, v in t.log.append("int \(v)") }
                .handle(outputType: String.self) { t, v in t.log.append("string \(v)") }
            mb.activateBoard(identifier: "a", withOption: "x")
            return log.lines + target.log
        }),
        ("io-destination-activation-and-flow", {
            let log = Log()
            let caller = Caller("c", log) { c in
                c.ioDestination("e").activation(with: String.self).activate(with: "via io")
            }
            let mb = Motherboard(boards: [caller, Echo("e", log)])
            mb.matchedFlow("e", with: String.self).handle { log.add("out \($0)") }
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines
        }),
        ("completer-from-a-board", {
            let log = Log()
            let caller = Caller("c", log) { c in c.completer("p").complete(false) }
            let mb = Motherboard(boards: [caller, Plain("p", log)])
            mb.completionFlow("p").handle { log.add("p done \($0)") }
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines + ["boards \(names(mb))"]
        }),
        ("next-to-board-with-input", {
            let log = Log()
            let caller = Caller("c", log) { c in c.nextToBoard(BoardID("p").with(input: 9)) }
            let mb = Motherboard(boards: [caller, Plain("p", log)])
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines
        }),
        ("result-task-board", {
            let log = Log()
            let task = ResultTaskBoard<Int, Int, Never>(identifier: "r") { input, done in done(.success(input + 1)) }
            let mb = Motherboard(boards: [task])
            mb.matchedFlow("r", with: BoardResult<Int, Never>.self).handle { result in
                if case let .success(v) = result { log.add("result \(v)") }
            }
            mb.completionFlow("r").handle { log.add("done \($0)") }
            mb.activateBoard(identifier: "r", withOption: 1)
            return log.lines
        }),
        ("flow-board-activation-and-flows", {
            let log = Log()
            let producer = BoardProducer(registrationsBuilder: { _ in BoardRegistration("step") { Echo($0, log) } })
            let flow = FlowBoard<String, String, Void, Tick>(identifier: "flow", producer: producer) { it in
                it.motherboard.matchedFlow("step", with: String.self).handle { log.add("step said \($0)"); it.sendOutput($0) }
            } flowActivation: { it, input in
                it.motherboard.activateBoard(identifier: "step", withOption: input)
            }
            let mb = Motherboard(boards: [flow])
            mb.matchedFlow("flow", with: String.self).handle { log.add("flow said \($0)") }
            mb.activateBoard(identifier: "flow", withOption: "go")
            return log.lines
        }),
    ] }

    /// Edge cases: action flows, block task errors, silent data, produce again, unregistered ids, bare boards, fresh flows.
    static var edgeCases: [(String, () -> [String])] { [
        ("action-flow-on-destination", {
            let log = Log()
            let caller = Caller("c", log) { c in c.sendFlowAction(Tick.tick) }
            let mb = Motherboard(boards: [caller])
            mb.actionFlow("c", with: Tick.self).handle { log.add("action \($0)") }
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines
        }),
        ("block-task-error-and-completion", {
            struct Failure: Error {}
            let log = Log()
            let block = BlockTaskBoard<Int, Int>(identifier: "b") { _, _, done in done(.failure(Failure())) }
            let mb = Motherboard(boards: [block])
            mb.blockActivation("b", with: BlockTaskParameter<Int, Int>.self)
                .activate(with: BlockTaskParameter<Int, Int>(input: 1).onError { _ in log.add("error") }.onCompletion { log.add("completion \($0)") })
            return log.lines
        }),
        ("silent-data-through-typed-flow", {
            let log = Log()
            let caller = Caller("c", log) { c in
                c.sendToMotherboard(data: "text")
                c.sendFlowAction(Tick.tick)
            }
            let mb = Motherboard(boards: [caller])
            mb.matchedFlow("c", with: String.self).handle { log.add("string \($0)") }
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines
        }),
        ("guaranteed-board-wrong-type-is-silent-for-models", {
            let log = Log()
            let mb = Motherboard(boards: [Echo("e", log)])
            mb.activateBoard(identifier: "e", withOption: Tick.tick)
            return ["lines \(log.lines.count)"]
        }),
        ("produce-again-after-completion", {
            let log = Log()
            let mb = Motherboard(boardProducer: BoardProducer(registrationsBuilder: { _ in BoardRegistration("f") { Finisher($0, log) } }))
            mb.activateBoard(identifier: "f", withOption: true)
            mb.activateBoard(identifier: "f", withOption: false)
            return log.lines + ["boards \(names(mb))"]
        }),
        ("unregistered-id-installs-a-noboard", {
            let log = Log()
            let p = BoardProducer()
            let mb = Motherboard(boardProducer: p)
            mb.activateBoard(identifier: "ghost", withOption: nil)
            p.registerBoard("ghost") { Plain($0, log) }
            mb.activateBoard(identifier: "ghost", withOption: 1)
            return log.lines + ["boards \(names(mb))", "types \(mb.boards.map { String(describing: type(of: $0)) })"]
        }),
        ("activatable-board-without-board", {
            let log = Log()
            let bare = Bare("bare", log)
            let mb = Motherboard(boards: [bare])
            mb.registerFlow(matchedIdentifiers: ["bare"], uniqueOutputType: String.self) { log.add("flow got \($0)") }
            mb.activateBoard(identifier: "bare", withOption: 1)
            log.add("boards \(names(mb)) same \(mb.boards.first === bare) delegate \(bare.delegate === mb)")
            let window = NSObject()
            mb.putIntoContext(window)
            log.add("context \(bare.context === window)")
            bare.complete()
            log.add("after complete [\(names(mb))] delegate cleared \(bare.delegate == nil)")
            return log.lines
        }),
        ("fresh-motherboard-flows", {
            let log = Log()
            let mb = Motherboard(boards: [Plain("a", log)])
            var lines = ["flows \(mb.flows.count)"]
            mb.registerGeneralFlow { (_: String) in }
            lines.append("after one \(mb.flows.count)")
            mb.resetFlows()
            lines.append("after reset \(mb.flows.count)")
            return lines
        }),
    ] }
}
