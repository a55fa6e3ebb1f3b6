import Boardy
import BoardyLock
import BoardyTestSupport
import Testing

/// Boardy's console warnings: the same texts under the same conditions, printed in a debug
/// build (to standard output unless captured), into the debug log when a runtime has one.
@Suite("Boardy's console warnings", .serialized)
struct BoardyConsoleTests {
    final class Plain: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    /// Runs `body` with the console captured; returns the warnings that mention `marker` (other
    /// tests may print meanwhile).
    static func captured(_ marker: String, _ body: () -> Void) -> [String] {
        let lines = LockedValue<[String]>([])
        let saved = BoardyConsole.output
        BoardyConsole.output = BoardyDebugLog { text in lines.withLockedValue { $0.append(text) } }
        body()
        BoardyConsole.output = saved
        return lines.withLockedValue { $0 }.filter { $0.contains(marker) }
    }

    @Test("duplicate registrations, a duplicated flow, an unregistered id and a board with no motherboard, in Boardy's words")
    func warnings() {
        let lines = Self.captured("console-") {
            let producer = BoardProducer()
            producer.registerBoard("console-a") { Plain(identifier: $0) }
            producer.registerBoard("console-a") { Plain(identifier: $0) }
            producer.registerGatewayBoard("console-g") { Plain(identifier: $0) }
            producer.registerGatewayBoard("console-g") { Plain(identifier: $0) }
            let container = BoardContainer()
            container.registerBoard("console-c") { Plain(identifier: $0) }
            container.registerBoard("console-c") { Plain(identifier: $0) }
            let mb = Motherboard(identifier: "console-mb", boardProducer: producer)
            let flow = BoardActivateFlow(identifier: "console-flow", matcher: { _ in false }, nextHandler: { _ in })
            mb.registerFlow(flow)
            mb.registerFlow(flow)
            mb.activateBoard(identifier: "console-missing", withOption: nil)
            let orphan = Plain(identifier: "console-orphan")
            orphan.sendToMotherboard(data: "x")
        }
        #expect(
            lines == [
                "⚠️ [BoardProducer] Board with identifier console-a is already registered. The existing factory is kept and this registration is ignored. Use registerBoard(_:replacingExisting:factory:) to state which one you want.",
                "⚠️ [GatewayBarrier] with identifier console-g is already registered. The registration will be ignored.",
                "⚠️ [BoardContainer] Board with identifier console-c is already registered. The existing factory is replaced. Use registerBoard(_:replacingExisting:factory:) to state which one you want.",
                "⚠️ [Motherboard] ➤ console-mb\n  [Duplicated flow] ➤ A flow with identifier console-flow is already registered!",
                "⚠️ [NoBoard] Feature Not Found - Board with identifier console-missing was not registered yet!!! ‼️",
                "⚠️ [Plain] [sendToMotherboard(data:)] [console-orphan] sent a message with data Optional(\"x\") to its Motherboard but it seems to have no Motherboards.",
            ])
    }

    @Test("a runtime with a debug log gets the warnings there, among its records, and the console none")
    func intoTheDebugLog() {
        let log = LockedValue<[String]>([])
        let lines = Self.captured("console-log") {
            let runtime = BoardyRuntime(processing: .immediate, debugLog: BoardyDebugLog { t in log.withLockedValue { $0.append(t) } })
            Motherboard(identifier: "console-log", boardProducer: BoardProducer(), runtime: runtime).activateBoard(identifier: "console-log-x", withOption: nil)
        }
        #expect(lines.isEmpty)
        #expect(log.withLockedValue { $0 }.contains("⚠️ [NoBoard] Feature Not Found - Board with identifier console-log-x was not registered yet!!! ‼️"))
    }

    @Test("the tools' runtimes (MisusePolicy.ignore) print nothing")
    func toolsPrintNothing() {
        let lines = Self.captured("console-tool") {
            let runtime = BoardyRuntime(processing: .immediate, debugLog: nil, misuse: .ignore)
            Motherboard(identifier: "console-tool", boardProducer: BoardProducer(), runtime: runtime).activateBoard(identifier: "console-tool-x", withOption: nil)
        }
        #expect(lines.isEmpty)
    }
}
