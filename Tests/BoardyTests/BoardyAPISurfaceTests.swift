import Boardy
import Foundation
import Testing

/// Boardy 1.63.1's public symbols that a symbol-graph diff (`swift symbolgraph-extract` on a Linux
/// build of Boardy's UIKit-free part and on ours) found missing here (issue 46), each used as an
/// app would, through `import Boardy` alone, with what it does on Boardy (read from Boardy's
/// source). The file compiling is half the guard; each case checks the behaviour.
@Suite("Boardy's API surface: the symbols the diff found missing")
struct BoardyAPISurfaceTests {
    final class Page {}

    /// Interactable: the continuous board below sends it commands, which Boardy asserts on for
    /// a board that is not.
    final class Plain: Board, InteractableBoard {
        var options: [Any?] = []
        func activate(withOption option: Any?) { options.append(option) }
    }

    final class Echo: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = String
        typealias OutputType = String
        func activate(withGuaranteedInput input: String) { sendOutput(input) }
    }

    // MARK: Board

    @Test("Board.watch(content:) and its family hold contents weakly and list the living ones")
    func watchedContents() {
        let board = Plain(identifier: "watcher")
        #expect(!board.watchedContentIsAvailable, "nothing watched: not available")
        var first: Page? = Page()
        let second = Page()
        board.watch(content: first!)
        board.watch(content: second)
        board.watch(content: NSObject())
        #expect(board.watchedContentIsAvailable)
        #expect(board.availableWatchedContents(Page.self).count == 2)
        #expect(board.firstAvailableWatchedContent(Page.self) === first)
        #expect(board.lastAvailableWatchedContent(Page.self) === second)
        first = nil
        #expect(board.availableWatchedContents(Page.self).map(ObjectIdentifier.init) == [ObjectIdentifier(second)])
        #expect(board.availableWatchedContents().count == 1, "the NSObject was released too")
        board.resetWatchedContents()
        #expect(!board.watchedContentIsAvailable)
        #expect(board.availableWatchedContents().isEmpty)
    }

    @Test("debugDescription is Boardy's: a board's type, id and motherboard")
    func debugDescriptions() {
        let board = Plain(identifier: "described")
        #expect(board.debugDescription == """
            ⛵️ [Debug Description]
                ● [Board] ➤ Plain
                ● [ID] ➤ described
                ● [Motherboard] ➤ nil
            """)
        let mainboard = Motherboard(identifier: "home", boards: [board])
        #expect(board.debugDescription.hasSuffix("● [Motherboard] ➤ Optional(home)"), "\(board.debugDescription) in \(mainboard.identifier)")
    }

    /// A board that is not a `Board`: Boardy's protocol defaults reach its delegate.
    final class Bare: IdentifiableBoard {
        weak var delegate: (any BoardDelegate)?
        let identifier: BoardID = "bare"
    }

    final class Recorder: BoardDelegate {
        var received: [Any?] = []
        func board(_ board: any IdentifiableBoard, didSendData data: Any?) { received.append(data) }
    }

    enum Ping: BoardFlowAction { case ping }

    @Test("IdentifiableBoard's complete(_:), sendFlowAction(_:) and debugDescription for boards that are not Boards")
    func identifiableBoardDefaults() {
        let bare = Bare()
        let recorder = Recorder()
        bare.delegate = recorder
        bare.complete(false)
        bare.sendFlowAction(Ping.ping)
        let done = recorder.received.first as? CompleteAction
        #expect(done?.identifier == "bare")
        #expect(done?.isDone == false)
        #expect(recorder.received.last is Ping)
        #expect(bare.debugDescription == "    🏝 [Bare] ➤ bare")
    }

    // MARK: Commands, ids, steps

    @Test("BoardCommand: init(identifier:) for Void and optional data, target(_:), withIdentifier(_:)")
    func commands() {
        let void = BoardCommand<Void>(identifier: "a")
        #expect(void.identifier == "a")
        let moved = BoardCommand(identifier: "a", input: 3).withIdentifier("b")
        #expect(moved.identifier == "b")
        #expect(moved.input == 3)
        let none = BoardCommand<Int?>(identifier: "c")
        #expect(none.input == nil)
        #expect(BoardCommand<Void>.target("d").identifier == "d")
        #expect(BoardCommand<String?>.target("e").input == nil)
        #expect(BoardCommand<Int>.target("f", 7).input == 7)
    }

    @Test("BoardID's == compares the strings; its literal type is String")
    func boardIDs() {
        let literal: BoardID.StringLiteralType = "pub.a"
        #expect(BoardID(stringLiteral: literal) == BoardID("pub.a"))
        #expect(BoardID("pub.a") != BoardID("pub.b"))
    }

    @Test("IDFlowStep and registerFlowSteps(_: [IDFlowStep]): each output of the source activates the destination")
    func idFlowSteps() {
        let first = Echo(identifier: "first")
        let second = Plain(identifier: "second")
        let mainboard = Motherboard(identifier: "steps", boards: [first, second])
        let step = IDFlowStep(source: "first", destination: "second")
        #expect(step.source == "first")
        #expect(step.destination == "second")
        mainboard.registerFlowSteps([step])
        mainboard.activateBoard(identifier: "first", withOption: "hello")
        #expect(second.options.map { $0 as? String } == ["hello"])
    }

    @Test("BoardRegistrationBuilder.buildIf and a board as its own registration")
    func builderAndRegistrations() {
        #expect(BoardRegistrationBuilder.buildIf(nil).isEmpty)
        let board = Plain(identifier: "self-registered")
        let registrations = board.asBoardRegistrations()
        #expect(registrations.map(\.identifier) == ["self-registered"])
        let producer = BoardProducer(registrationsBuilder: { _ in board })
        #expect(producer.produceBoard(identifier: "self-registered") === board)
    }

    // MARK: Motherboards

    @Test("Motherboard's initializers in Boardy's argument order, and deactivateBoard(identifier:)")
    func motherboards() {
        let a = Plain(identifier: "a")
        let installed = Motherboard(identifier: "m1", boards: [a])
        #expect(installed.boards.map(\.identifier) == ["a"])
        installed.deactivateBoard(identifier: "a")
        #expect(installed.boards.isEmpty)
        let producer = BoardProducer(registrationsBuilder: { _ in BoardRegistration("made") { Plain(identifier: $0) } })
        let produced = Motherboard(identifier: "m2", boardProducer: producer)
        produced.activateBoard(identifier: "made", withOption: 1)
        #expect(produced.boards.map(\.identifier) == ["made"])
        let both = Motherboard(identifier: "m3", boardProducer: producer, boards: [Plain(identifier: "b")])
        #expect(both.boards.map(\.identifier) == ["b"])
        let any: any MotherboardType = both
        any.deactivateBoard(identifier: "b")
        #expect(both.boards.isEmpty)
    }

    @Test("ActivatableBoard.activate() activates with no option; completer(_:) completes a sibling")
    func activationHelpers() {
        let a = Plain(identifier: "a")
        let b = Plain(identifier: "b")
        let mainboard = Motherboard(identifier: "m", boards: [a, b])
        a.activate()
        #expect(a.options.count == 1)
        #expect(a.options.first! == nil)
        a.completer("b").complete(true)
        #expect(mainboard.boards.map(\.identifier) == ["a"], "b completed and left")
    }

    @Test("OutputCombined2Flow…5Flow run their handler with one typed value of each board")
    func combinedFlows() {
        let boards = (1...5).map { Echo(identifier: BoardID("e\($0)")) }
        let mainboard = Motherboard(identifier: "combined", boards: boards)
        var two: (String, String)?
        var five: [String] = []
        let spec = { (i: Int) in GuaranteedOutputSpecifications(identifier: BoardID("e\(i)"), valueType: String.self) }
        mainboard.registerFlow(OutputCombined2Flow(spec1: spec(1), spec2: spec(2), strategy: .batchOneByOne) { two = ($0, $1) })
        mainboard.registerFlow(OutputCombined3Flow(spec1: spec(1), spec2: spec(2), spec3: spec(3), strategy: .batchOneByOne) { _, _, _ in })
        mainboard.registerFlow(OutputCombined4Flow(spec1: spec(1), spec2: spec(2), spec3: spec(3), spec4: spec(4), strategy: .batchOneByOne) { _, _, _, _ in })
        mainboard.registerFlow(OutputCombined5Flow(spec1: spec(1), spec2: spec(2), spec3: spec(3), spec4: spec(4), spec5: spec(5), strategy: .batchOneByOne) {
            five = [$0, $1, $2, $3, $4]
        })
        for i in 1...5 { mainboard.activateBoard(identifier: BoardID("e\(i)"), withOption: "v\(i)") }
        #expect(two?.0 == "v1")
        #expect(two?.1 == "v2")
        #expect(five == ["v1", "v2", "v3", "v4", "v5"])
    }

    @Test("a completion is not a BoardOutputModel: a general flow over outputs never receives one (Boardy's CompleteAction is internal)")
    func completionsAreNotOutputs() {
        let echo = Echo(identifier: "echo")
        let mainboard = Motherboard(identifier: "outputs", boards: [echo])
        var seen: [String] = []
        mainboard.registerGeneralFlow { (output: any BoardOutputModel) in seen.append("general \(output.identifier)") }
        mainboard.matchedFlow("echo", with: (any BoardOutputModel).self).handle { seen.append("matched \($0.identifier)") }
        mainboard.activateBoard(identifier: "echo", withOption: "hi")
        echo.complete(true)
        #expect(!(CompleteAction(identifier: "echo", isDone: true) as Any is any BoardOutputModel))
        #expect(seen == [], "\(seen)")
    }

    // MARK: Inputs

    final class Counted: Board, GuaranteedBoard {
        typealias InputType = Int
        var inputs: [Int] = []
        var inputAdapters: [(Any?) -> Int?] { [{ ($0 as? String).flatMap(Int.init) }] }
        var silentInputWhiteList: [(_ input: Any?) -> Bool] { [{ $0 as? String == "quiet" }] }
        func activate(withGuaranteedInput input: Int) { inputs.append(input) }
    }

    @Test("GuaranteedBoard.inputAdapters convert options; silentInputWhiteList lets an option pass quietly")
    func adaptersAndSilentInputs() {
        let board = Counted(identifier: "counted")
        #expect(board.convertOptionToInput("12") == 12)
        board.activate(withOption: "41")
        board.activate(withOption: 1)
        #expect(board.inputs == [41, 1])
        #expect(board.inputMismatch("quiet") == nil, "a whitelisted option is not a mismatch")
        #expect(board.inputMismatch(true) != nil)
        board.activate(withOption: "quiet")
        #expect(board.inputs == [41, 1], "and it does not activate")
        // A Decodable input decodes JSON by default (Boardy's adapter).
        struct Point: Codable, Equatable { var x: Int }
        final class Decoding: Board, GuaranteedBoard {
            typealias InputType = Point
            var got: [Point] = []
            func activate(withGuaranteedInput input: Point) { got.append(input) }
        }
        let decoding = Decoding(identifier: "decoding")
        decoding.activate(withOption: ["x": 3])
        decoding.activate(withOption: try? JSONEncoder().encode(Point(x: 4)))
        #expect(decoding.got == [Point(x: 3), Point(x: 4)])
    }

    // MARK: ComponentKit

    final class Countdown: TaskBoard<Int, Int> {
        var events: [String] = []
        override func willComplete() {
            events.append("willComplete")
            super.willComplete()
        }
    }

    @Test("TaskBoard.willComplete() runs the completion handler right before the board completes")
    func taskWillComplete() {
        var handled = 0
        let task = Countdown(identifier: "countdown", executor: { _, input, done in done(.success(input - 1)) }, completionHandler: { _ in handled += 1 })
        let mainboard = Motherboard(identifier: "tasks", boards: [task])
        mainboard.activateBoard(identifier: "countdown", withOption: 3)
        #expect(task.events == ["willComplete"])
        #expect(handled == 1)
        #expect(task.convertOptionToInput(5) == 5)
    }

    final class Asker: Board, ActivatableBoard {
        var results: [Int] = []
        func activate(withOption option: Any?) {
            blockActivation("doubler", with: BlockTaskParameter<Int, Int>.self)
                .activate(with: BlockTaskParameter<Int, Int>(input: 21).onSuccess { [weak self] in self?.results.append($0) })
        }
    }

    @Test("ActivatableBoard.blockActivation(_:with:) activates a sibling block task with its handlers (BlockTaskBoardActivation)")
    func boardBlockActivation() {
        let doubler = BlockTaskBoard<Int, Int>(identifier: "doubler") { _, input, completion in completion(.success(input * 2)) }
        let asker = Asker(identifier: "asker")
        let mainboard = Motherboard(identifier: "block", boards: [asker, doubler])
        mainboard.activateBoard(identifier: "asker", withOption: nil)
        #expect(asker.results == [42])
    }

    @Test("BarrierBoard.Action is Boardy's nested enum: wait, overcome, cancel")
    func barrierActions() {
        var got: [String] = []
        let barrier = BarrierBoard<String>(identifier: "gate")
        let mainboard = Motherboard(identifier: "barrier", boards: [barrier])
        defer { withExtendedLifetime(mainboard) {} }
        let wait: BarrierBoard<String>.Action = .wait { got.append($0) }
        barrier.activate(withOption: wait)
        barrier.activate(withOption: BarrierBoard<String>.Action.overcome("open"))
        #expect(got == ["open"])
        if case .cancel = BarrierBoard<String>.Action.cancel {} else { Issue.record("cancel is a case") }
    }

    final class Relay: ModernContinuableBoard, GuaranteedBoard {
        typealias InputType = String
        func activate(withGuaranteedInput input: String) {
            continueBoard(BoardInput<String>(target: "inner", input: input))
            continueBoard(model: BoardInput<String>(target: "inner", input: input + "!"))
            continueInteractWithBoard(BoardCommand<Int>(identifier: "inner", input: 1))
            continueInteractWithBoard(command: BoardCommand<Int>(identifier: "inner", input: 2))
        }
    }

    @Test("the members Boardy lists on other types (BoardyAPISymbolTests.listedElsewhere) are there as Boardy's")
    func membersListedElsewhere() {
        let task = TaskBoard<Int, Int>(identifier: "t") { _, input, done in done(.success(input)) }
        let mainboard = Motherboard(identifier: "elsewhere", boards: [task, NoBoard(identifier: "none")])
        var outputs: [Int] = []
        mainboard.matchedFlow("t", with: Int.self).handle { outputs.append($0) }
        task.sendOutput(9)
        #expect(outputs == [9])
        _ = mainboard.blockActivation("t", with: BlockTaskParameter<Int, Int>.self)
        _ = NoBoard(identifier: "n").blockActivation("t", with: BlockTaskParameter<Int, Int>.self)
        let inner = Plain(identifier: "inner")
        let relay = Relay(identifier: "relay", boardProducer: BoardProducer(registrationsBuilder: { _ in inner }))
        let outer = Motherboard(identifier: "outer", boards: [relay])
        outer.activateBoard(identifier: "relay", withOption: "go")
        #expect(inner.options.map { $0 as? String } == ["go", "go!"])
        #expect(relay.motherboard.boards.map(\.identifier) == ["inner"])
    }

    @Test("ContinuousBoard.putIntoContext(_:) puts its inner motherboard's boards into the context too")
    func continuousContext() {
        let inner = Plain(identifier: "inner")
        let outer = ContinuousBoard(identifier: "outer", boards: [inner])
        let window = Page()
        outer.putIntoContext(window)
        #expect(outer.context === window)
        #expect(inner.context === window)
    }

    // MARK: Plugins and URLs

    struct HomePlugin: ModulePlugin {
        var identifier: BoardID { "home" }
        func apply(for main: any MainComponent) { main.producer.registerBoard("home") { Plain(identifier: $0) } }
    }

    struct Environment: MainOption, Equatable {
        static var defaultValue: Environment { Environment(name: "production") }
        var name: String
    }

    @Test("MainOptions.Key.environment and value(of:); LauncherComponent.share(value:); PluginLauncher.shared")
    func launcher() throws {
        let options = MainOptions.default.set("staging", forKey: .environment)
        #expect(options[.environment] as? String == "staging")
        let raw: MainOptions.Key.RawValue = MainOptions.Key.environment.rawValue
        #expect(raw == "environment")
        #expect(options.value(of: Environment.self) == .defaultValue)
        #expect(options.with(Environment(name: "qa")).value(of: Environment.self).name == "qa")
        let component = PluginLauncher.with(options: .default).share(value: ["k": 1])
        #expect(try JSONDecoder().decode([String: Int].self, from: try #require(component.sharedEncodedData)) == ["k": 1])
        let launcher = component.install(plugin: HomePlugin()).initialize()
        #expect(PluginLauncher.shared === launcher, "the launcher last initialized")
    }

    /// Deprecated itself, so that using Boardy's deprecated `launch(in:with:)` is not a warning.
    @available(*, deprecated, message: "exercises Boardy's deprecated launch(in:with:) on purpose")
    @Test("PluginLauncher.launch(in:with:) launches and activates the input's target")
    func launchWithInput() {
        let launcher = PluginLauncher.with(options: .default).install(plugin: HomePlugin()).initialize()
        let window = Page()
        launcher.launch(in: window, with: BoardInput<Int>(target: "home", input: 5))
        #expect((launcher.mainboard.board("home") as? Plain)?.options.first as? Int == 5)
    }

    @Test("URL.boardy: query parameters (decoded), as JSON, and the path's components")
    func urls() throws {
        let url = try #require(URL(string: "app://host/orders/42?id=7&name=a%20b"))
        #expect(url.boardy.queryParameters == ["id": "7", "name": "a b"])
        let json = try #require(try JSONSerialization.jsonObject(with: url.boardy.queryData) as? [String: String])
        #expect(json == ["id": "7", "name": "a b"])
        #expect(url.boardy.pathComponents == ["orders", "42"])
    }

    @Test("ChainDataHandler: the first handler of the data's type runs; the fallback takes the rest; the target is held weakly")
    func chainDataHandler() {
        final class Target { var log: [String] = [] }
        var target: Target? = Target()
        let chain = ChainDataHandler(target!)
            .with(dataType: Int.self) { $0.log.append("int \($1)") }
            .with(dataType: String.self) { $0.log.append("string \($1)") }
            .fallback { t, data in t.log.append("other \(String(describing: data))") }
        chain.handle(data: 1)
        chain.handle(data: "two")
        chain.handle(data: 3.5)
        #expect(target?.log == ["int 1", "string two", "other Optional(3.5)"])
        target = nil
        #expect(chain.target == nil)
        chain.handle(data: 4)
    }
}

/// Boardy's default flows hand a board's requests and commands to the flows an app registers
/// (issue 46, behaviour 1): what a flow over `BoardInputModel`, `BoardCommandModel` or `Any` sees.
@Suite("Boardy's flows see every message a board sends")
struct BoardyGeneralFlowTests {
    final class Sender: Board, ActivatableBoard {
        func activate(withOption option: Any?) {
            nextToBoard(BoardInput<String>(target: "receiver", input: "hello"))
            interactWithOtherBoard(BoardCommand<Int>(identifier: "receiver", input: 7))
            sendToMotherboard(data: nil)
        }
    }

    final class Receiver: Board, ActivatableBoard, InteractableBoard {
        var got: [String] = []
        func activate(withOption option: Any?) { got.append("activated \(option as? String ?? "-")") }
        func interact(command: Any?) { got.append("command \(command as? Int ?? 0)") }
    }

    @Test("a flow over BoardInputModel sees each activation request a board makes, after the activation; over BoardCommandModel each command")
    func requestsAndCommands() {
        let receiver = Receiver(identifier: "receiver")
        let mainboard = Motherboard(identifier: "flows", boards: [Sender(identifier: "sender"), receiver])
        var seen: [String] = []
        mainboard.registerGeneralFlow { (request: any BoardInputModel) in
            seen.append("request \(request.identifier) \(request.option as? String ?? "-") after \(receiver.got.count)")
        }
        mainboard.registerGeneralFlow { (command: any BoardCommandModel) in seen.append("command \(command.identifier) \(command.data as? Int ?? 0)") }
        mainboard.activateBoard(identifier: "sender", withOption: nil)
        #expect(seen == ["request receiver hello after 1", "command receiver 7"])
        #expect(receiver.got == ["activated hello", "command 7"])
    }

    @Test("a flow over Any sees every message, nil included")
    func everythingOnAny() {
        let mainboard = Motherboard(identifier: "any", boards: [Sender(identifier: "sender"), Receiver(identifier: "receiver")])
        var count = 0
        var nils = 0
        mainboard.registerGeneralFlow { (data: Any?) in
            count += 1
            if data == nil { nils += 1 }
        }
        mainboard.activateBoard(identifier: "sender", withOption: nil)
        #expect(count == 3, "the request, the command and the nil output")
        #expect(nils == 1)
        var plain = 0
        mainboard.registerGeneralFlow { (_: Any) in plain += 1 }
        mainboard.activateBoard(identifier: "sender", withOption: nil)
        #expect(plain == 3, "over Any too, nil included")
    }
}
