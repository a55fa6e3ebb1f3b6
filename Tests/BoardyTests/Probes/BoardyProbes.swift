// Differential probes (issue 46): small programs that print what Boardy does. The same two
// files (this one and BoardyProbes+Barriers.swift, which import only Boardy and Foundation)
// compile against the real Boardy 1.63.1 (both copied into the probes target, Sources/probes/,
// of a package built on Linux beside this project, never committed) and against ours;
// BoardyProbeTests compares ours with what the real one printed
// (Fixtures/probes-boardy-1.63.1.txt). Only Boardy's public API is used, and nothing that
// prints a random id.

import Boardy
import Foundation

enum BoardyProbes {
    final class Log {
        var lines: [String] = []
        func add(_ s: String) { lines.append(s) }
    }

    /// A board that writes to a probe's log.
    class LogBoard: Board {
        let log: Log
        init(_ id: BoardID, _ log: Log) {
            self.log = log
            super.init(identifier: id)
        }
    }

    /// A board that is not a `Board`: Boardy's `ActivatableBoard` asks only for an id, a
    /// delegate and a context.
    final class Bare: ActivatableBoard {
        let identifier: BoardID
        weak var delegate: BoardDelegate?
        weak var context: AnyObject?
        let log: Log
        init(_ id: BoardID, _ log: Log) {
            identifier = id
            self.log = log
        }
        var debugDescription: String { "Bare(\(identifier.rawValue))" }
        func putIntoContext(_ context: AnyObject) { self.context = context }
        func activate(withOption option: Any?) {
            log.add("\(identifier.rawValue) activated \(String(describing: option))")
            sendToMotherboard(data: "echo")
        }
    }

    final class Plain: LogBoard, ActivatableBoard {
        func activate(withOption option: Any?) { log.add("\(identifier.rawValue) activated \(String(describing: option))") }
    }

    final class Echo: LogBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = String
        typealias OutputType = String
        func activate(withGuaranteedInput input: String) {
            log.add("\(identifier.rawValue) got \(input)")
            sendOutput(input + "!")
        }
    }

    final class Finisher: LogBoard, GuaranteedBoard {
        typealias InputType = Bool
        func activate(withGuaranteedInput input: Bool) {
            log.add("\(identifier.rawValue) completes \(input)")
            complete(input)
        }
    }

    final class Talker: LogBoard, ActivatableBoard, InteractableBoard {
        func activate(withOption option: Any?) { log.add("\(identifier.rawValue) activated") }
        func interact(command: Any?) { log.add("\(identifier.rawValue) command \(String(describing: command))") }
    }

    final class Caller: Board, ActivatableBoard {
        let log: Log
        let action: (Caller) -> Void
        init(_ id: BoardID, _ log: Log, _ action: @escaping (Caller) -> Void) {
            self.log = log
            self.action = action
            super.init(identifier: id)
        }
        func activate(withOption option: Any?) { action(self) }
    }

    enum Tick: BoardFlowAction { case tick }

    static func producer(_ log: Log, _ ids: [BoardID]) -> BoardProducer {
        BoardProducer(registrationsBuilder: { _ in
            for id in ids { BoardRegistration(id) { Plain($0, log) } }
        })
    }

    static func names(_ mb: Motherboard) -> String { mb.boards.map(\.identifier.rawValue).joined(separator: ",") }

    /// Each probe: a name and what it prints, in the order Boardy's output was recorded.
    static var all: [(String, () -> [String])] {
        producersAndFlows + inputsTasksAndHelpers + barriersAndGateways + continuousAndIO + edgeCases
    }

    /// Producers and registrations, typed flows and flow steps, completions, commands, flow actions.
    static var producersAndFlows: [(String, () -> [String])] { [
        ("activate-installed", {
            let log = Log()
            let mb = Motherboard(boards: [Plain("a", log)])
            mb.activateBoard(identifier: "a", withOption: 1)
            mb.activateBoard(identifier: "a", withOption: nil)
            return log.lines + ["boards \(names(mb))"]
        }),
        ("produce-on-demand", {
            let log = Log()
            let mb = Motherboard(boardProducer: producer(log, ["x", "y"]))
            mb.activateBoard(identifier: "y", withOption: "hi")
            mb.activateBoard(identifier: "x", withOption: nil)
            return log.lines + ["boards \(names(mb))"]
        }),
        ("first-registration-wins", {
            let log = Log()
            let p = BoardProducer()
            p.registerBoard("dup") { _ in Plain("first", log) }
            p.registerBoard("dup") { _ in Plain("second", log) }
            let board = p.produceBoard(identifier: "dup")
            return ["produced \(board?.identifier.rawValue ?? "nil")"]
        }),
        ("external-producer-fallback", {
            let log = Log()
            let outer = producer(log, ["outer"])
            let inner = BoardProducer(externalProducer: outer, registrationsBuilder: { _ in BoardRegistration("inner") { Plain($0, log) } })
            return ["inner \(inner.produceBoard(identifier: "inner")?.identifier.rawValue ?? "nil")",
                    "outer \(inner.produceBoard(identifier: "outer")?.identifier.rawValue ?? "nil")",
                    "none \(inner.produceBoard(identifier: "none").map { String(describing: type(of: $0)) } ?? "nil")"]
        }),
        ("typed-input-and-output-flow", {
            let log = Log()
            let mb = Motherboard(boards: [Echo("e", log)])
            mb.matchedFlow("e", with: String.self).handle { log.add("flow got \($0)") }
            mb.activateBoard(identifier: "e", withOption: "x")
            return log.lines
        }),
        ("flow-steps-chain", {
            let log = Log()
            let mb = Motherboard(boards: [Echo("a", log), Echo("b", log), Echo("c", log)])
            mb.registerFlowSteps("a" ->> "b" ->> "c")
            mb.activateBoard(identifier: "a", withOption: "go")
            return log.lines
        }),
        ("completion-flow-and-removal", {
            let log = Log()
            let mb = Motherboard(boards: [Finisher("f", log), Plain("p", log)])
            mb.completionFlow("f").handle { log.add("completed \($0)") }
            mb.activateBoard(identifier: "f", withOption: false)
            return log.lines + ["boards \(names(mb))"]
        }),
        ("completion-reaches-no-output-flow", {
            let log = Log()
            let mb = Motherboard(boards: [Finisher("f", log)])
            mb.registerGeneralFlow { (o: BoardOutputModel) in log.add("output model \(o.identifier.rawValue)") }
            mb.registerGeneralFlow { (b: Bool) in log.add("bool \(b)") }
            mb.activateBoard(identifier: "f", withOption: true)
            return log.lines
        }),
        ("general-flow-on-requests-and-commands", {
            let log = Log()
            let talker = Talker("t", log)
            let caller = Caller("c", log) { c in
                c.nextToBoard(BoardInput<String>(target: "t", input: "in"))
                c.interactWithOtherBoard(BoardCommand<Int>(identifier: "t", input: 5))
            }
            let mb = Motherboard(boards: [caller, talker])
            mb.registerGeneralFlow { (m: BoardInputModel) in log.add("request \(m.identifier.rawValue) \(String(describing: m.option))") }
            mb.registerGeneralFlow { (m: BoardCommandModel) in log.add("command \(m.identifier.rawValue) \(String(describing: m.data))") }
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines
        }),
        ("general-flow-on-any-sees-nil", {
            let log = Log()
            let caller = Caller("c", log) { c in c.sendToMotherboard(data: nil) }
            let mb = Motherboard(boards: [caller])
            mb.registerGeneralFlow { (_: Any) in log.add("any") }
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines
        }),
        ("commands-to-an-installed-board", {
            let log = Log()
            let mb = Motherboard(boards: [Talker("t", log)])
            mb.interactWithBoard(command: BoardCommand<Int>(identifier: "t", input: 1))
            mb.interactWithBoard(command: BoardCommand<String>(identifier: "t", input: "two"))
            return log.lines
        }),
        ("flow-action-general-flow", {
            let log = Log()
            let caller = Caller("c", log) { c in c.sendFlowAction(Tick.tick) }
            let mb = Motherboard(boards: [caller])
            mb.registerGeneralFlow { (a: Tick) in log.add("action \(a)") }
            mb.activateBoard(identifier: "c", withOption: nil)
            return log.lines
        }),
        ("continuous-board-forwards-action", {
            let log = Log()
            final class Outer: ContinuousBoard, ActivatableBoard {
                func activate(withOption option: Any?) {}
            }
            let inner = Caller("inner", log) { c in c.sendFlowAction(Tick.tick) }
            let outer = Outer(identifier: "outer", motherboard: Motherboard(boards: [inner]))
            final class Opener: Board, ActivatableBoard {
                weak var outer: ContinuousBoard?
                func activate(withOption option: Any?) { outer?.motherboard.activateBoard(identifier: "inner", withOption: nil) }
            }
            let opener = Opener(identifier: "opener")
            opener.outer = outer
            let mb = Motherboard(boards: [outer, opener])
            mb.registerGeneralFlow { (a: Tick) in log.add("main saw \(a)") }
            mb.activateBoard(identifier: "opener", withOption: nil)
            return log.lines
        }),
    ] }

    /// Input adapters, task boards, barrier boards, removal, combined and chained flows, helpers, launchers.
    static var inputsTasksAndHelpers: [(String, () -> [String])] { [
        ("guaranteed-input-adapters", {
            final class Counted: LogBoard, GuaranteedBoard {
                typealias InputType = Int
                var inputAdapters: [(Any?) -> Int?] { [{ ($0 as? String).flatMap(Int.init) }] }
                func activate(withGuaranteedInput input: Int) { log.add("got \(input)") }
            }
            let log = Log()
            let mb = Motherboard(boards: [Counted("n", log)])
            mb.activateBoard(identifier: "n", withOption: "12")
            mb.activateBoard(identifier: "n", withOption: 3)
            return log.lines
        }),
        ("decodable-input-from-json", {
            struct Point: Codable { var x: Int }
            final class Decoding: LogBoard, GuaranteedBoard {
                typealias InputType = Point
                func activate(withGuaranteedInput input: Point) { log.add("x \(input.x)") }
            }
            let log = Log()
            let mb = Motherboard(boards: [Decoding("d", log)])
            mb.activateBoard(identifier: "d", withOption: ["x": 4])
            mb.activateBoard(identifier: "d", withOption: try? JSONEncoder().encode(Point(x: 5)))
            return log.lines
        }),
        ("task-board-success-and-failure", {
            struct Failure: Error {}
            let log = Log()
            let ok = TaskBoard<Int, Int>(identifier: "ok", executor: { _, i, done in done(.success(i * 2)) }, successHandler: { _, o in log.add("success \(o)") },
                                         completionHandler: { _ in log.add("ok completion") })
            let bad = TaskBoard<Int, Int>(identifier: "bad", executor: { _, _, done in done(.failure(Failure())) }, errorHandler: { _, _ in log.add("error") },
                                          completionHandler: { _ in log.add("bad completion") })
            let mb = Motherboard(boards: [ok, bad])
            mb.matchedFlow("ok", with: Int.self).handle { log.add("output \($0)") }
            mb.completionFlow("ok").handle { log.add("ok done \($0)") }
            mb.completionFlow("bad").handle { log.add("bad done \($0)") }
            mb.activateBoard(identifier: "ok", withOption: 21)
            mb.activateBoard(identifier: "bad", withOption: 1)
            return log.lines + ["boards \(names(mb))"]
        }),
        ("block-task-handlers", {
            let log = Log()
            let block = BlockTaskBoard<Int, Int>(identifier: "b") { _, i, done in done(.success(i + 1)) }
            let mb = Motherboard(boards: [block])
            mb.blockActivation("b", with: BlockTaskParameter<Int, Int>.self)
                .activate(with: BlockTaskParameter<Int, Int>(input: 1).onSuccess { log.add("success \($0)") }.onCompletion { log.add("completion \($0)") })
            return log.lines
        }),
        ("barrier-board-wait-overcome", {
            let log = Log()
            let barrier = BarrierBoard<String>(identifier: "gate")
            let mb = Motherboard(boards: [barrier])
            mb.activateBoard(identifier: "gate", withOption: BarrierBoard<String>.Action.wait { log.add("first \($0)") })
            mb.activateBoard(identifier: "gate", withOption: BarrierBoard<String>.Action.wait { log.add("second \($0)") })
            mb.activateBoard(identifier: "gate", withOption: BarrierBoard<String>.Action.overcome("open"))
            return log.lines + ["boards \(names(mb))"]
        }),
        ("barrier-board-cancel", {
            let log = Log()
            let barrier = BarrierBoard<String>(identifier: "gate")
            let mb = Motherboard(boards: [barrier])
            mb.completionFlow("gate").handle { log.add("gate done \($0)") }
            mb.activateBoard(identifier: "gate", withOption: BarrierBoard<String>.Action.wait { log.add("ran \($0)") })
            mb.activateBoard(identifier: "gate", withOption: BarrierBoard<String>.Action.cancel)
            return log.lines
        }),
        ("deactivate-and-remove", {
            let log = Log()
            let mb = Motherboard(boards: [Plain("a", log), Plain("b", log), Plain("c", log)])
            mb.deactivateBoard(identifier: "b")
            mb.removeBoard(withIdentifier: "a")
            return ["boards \(names(mb))"]
        }),
        ("install-order-in-boards", {
            let log = Log()
            let mb = Motherboard(boards: [Plain("z", log), Plain("a", log)])
            mb.installBoard(Plain("m", log))
            return ["boards \(names(mb))"]
        }),
        ("combined-flow-two", {
            let log = Log()
            let mb = Motherboard(boards: [Echo("a", log), Echo("b", log)])
            mb.registerFlow(OutputCombined2Flow(
                spec1: GuaranteedOutputSpecifications(identifier: "a", valueType: String.self), spec2: GuaranteedOutputSpecifications(identifier: "b", valueType: String.self),
                strategy: .batchOneByOne) { x, y in log.add("combined \(x) \(y)") })
            mb.activateBoard(identifier: "b", withOption: "2")
            mb.activateBoard(identifier: "a", withOption: "1")
            return log.lines
        }),
        ("chain-data-handler", {
            final class Target { var log: [String] = [] }
            let target = Target()
            let chain = ChainDataHandler(target)
                .with(dataType: Int.self) { $0.log.append("int \($1)") }
                .fallback { t, d in t.log.append("fallback \(String(describing: d))") }
            chain.handle(data: 1)
            chain.handle(data: "s")
            return target.log
        }),
        ("url-extensions", {
            let url = URL(string: "app://h/a/b?k=v%20w")!
            return ["query \(url.boardy.queryParameters)", "path \(url.boardy.pathComponents)"]
        }),
        ("board-command-helpers", {
            let c = BoardCommand<Void>(identifier: "x").withIdentifier("y")
            let n = BoardCommand<Int?>.target("z")
            return ["command \(c.identifier.rawValue)", "nil input \(String(describing: n.input))"]
        }),
        ("board-input-helpers", {
            let a = BoardInput<Void>.target("a")
            let b = BoardID("b").with(input: 3)
            return ["input \(a.identifier.rawValue)", "input \(b.identifier.rawValue) \(b.input)"]
        }),
        ("plugin-launcher-activate-now", {
            struct Plugin: ModulePlugin {
                let log: Log
                var identifier: BoardID { "plugin" }
                func apply(for main: MainComponent) { main.producer.registerBoard("home") { Plain($0, log) } }
            }
            let log = Log()
            let launcher = PluginLauncher.with(options: .default).install(plugin: Plugin(log: log)).instantiate()
            launcher.activateNow { $0.activateBoard(identifier: "home", withOption: "now") }
            return log.lines
        }),
        ("main-options", {
            let options = MainOptions.default.set("qa", forKey: .environment)
            return ["environment \(options[.environment] as? String ?? "nil")", "key \(MainOptions.Key.environment.rawValue)"]
        }),
    ] }
}
