import Boardy
import BoardyIngest
import BoardyLock
import BoardyTrace
import Foundation
import Testing

/// Our engine prints Boardy's debug log: the same flows as the real Boardy's fixtures, written
/// here against our `Boardy` with the same board types, print the same records line for line
/// (what only the process prints once, such as the legacy ContinuousBoard notice, aside).
@Suite("Our engine prints Boardy's log")
struct EngineLogTests {
    final class Simple: Board, ActivatableBoard {
        var onActivate: ((Simple, Any?) -> Void)?
        func activate(withOption option: Any?) { onActivate?(self, option) }
    }

    final class Inter: Board, ActivatableBoard, InteractableBoard {
        func activate(withOption option: Any?) {}
        func interact(command: Any?) { sendToMotherboard(data: "got \(command ?? "nil")") }
    }

    final class Gated: Board, ActivatableBoard {
        let gate: BoardID
        init(identifier: BoardID, gate: BoardID) {
            self.gate = gate
            super.init(identifier: identifier)
        }
        func activationBarrier(withOption option: Any?) -> ActivationBarrier? {
            ioDestination(gate).activation(with: Any?.self).barrier(scope: .mainboard, option: .void)
        }
        func activate(withOption option: Any?) { sendToMotherboard(data: "ran:\(option ?? "nil")") }
    }

    struct Receipt: CustomStringConvertible {
        let id: Int
        var description: String { "Receipt #\(id)\n  items: 3\n  total: 9.99" }
    }

    /// A log capture and a motherboard printing to it.
    final class Capture: Sendable {
        let lines = LockedValue<[String]>([])
        var log: BoardyDebugLog {
            let lines = self.lines
            return BoardyDebugLog { record in lines.withLockedValue { $0.append(record) } }
        }
        var text: String { lines.withLockedValue { $0.joined(separator: "\n") } + "\n" }
        func motherboard(_ registrations: [(BoardID, (BoardID) -> any ActivatableBoard)]) -> Motherboard {
            let producer = BoardProducer(registrationsBuilder: { _ in registrations.map { r in BoardRegistration(r.0) { r.1($0) } } })
            return Motherboard(identifier: "main", boardProducer: producer, runtime: BoardyRuntime(processing: .immediate, debugLog: log))
        }
    }

    /// The record lines of a log (its own prints and the process's one-time notices aside).
    static func records(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { l in
            l.hasSuffix("Boardy Log:") || l.hasPrefix("    ") || l.hasPrefix("⚠️") || l.hasPrefix("⏩")
        }
    }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: RealBoardyLogTests.folder.appendingPathComponent(name), encoding: .utf8)
    }

    static func expectSameRecords(_ ours: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let theirs = records(try fixture(name)), mine = records(ours)
        let i = Array(zip(theirs, mine)).firstIndex { $0 != $1 } ?? min(theirs.count, mine.count)
        if i < max(theirs.count, mine.count) {
            Issue.record(
                "\(name): line \(i + 1) of the records differs:\n- \(i < theirs.count ? theirs[i] : "<end>")\n+ \(i < mine.count ? mine[i] : "<end>")",
                sourceLocation: sourceLocation)
        }
    }

    @Test("outputs and a flow, with a value over several lines")
    func outputs() throws {
        let c = Capture()
        let mb = c.motherboard([
            ("pub.Cart", { id in let b = Simple(identifier: id); b.onActivate = { b, o in b.sendToMotherboard(data: "cart:\(o ?? "nil")") }; return b }),
            ("pub.Order", { id in let b = Simple(identifier: id); b.onActivate = { b, _ in b.sendToMotherboard(data: Receipt(id: 42)); b.complete() }; return b }),
        ])
        mb.registerFlow(matchedIdentifiers: "pub.Cart", target: mb, uniqueOutputType: String.self) { mb, s in mb.activateBoard(identifier: "pub.Order", withOption: s) }
        mb.activateBoard(identifier: "pub.Cart", withOption: "c1")
        try Self.expectSameRecords(c.text, "outputs-and-flows.log")
    }

    @Test("an activation barrier that releases two waiters")
    func barrierRelease() throws {
        let c = Capture()
        var gate: Simple?
        let mb = c.motherboard([
            ("pub.Gate", { id in let b = Simple(identifier: id); b.onActivate = { b, _ in gate = b }; return b }), ("pub.Dash", { Gated(identifier: $0, gate: "pub.Gate") }),
        ])
        mb.activateBoard(identifier: "pub.Dash", withOption: "first")
        mb.activateBoard(identifier: "pub.Dash", withOption: "second")
        gate?.complete(true)
        try Self.expectSameRecords(c.text, "barrier-release.log")
    }

    @Test("a request from a board, a value over two lines, a completion with false")
    func nextToBoard() throws {
        let c = Capture()
        let mb = c.motherboard([
            ("pub.A", { id in let b = Simple(identifier: id); b.onActivate = { b, _ in b.nextToBoard(.target("pub.B", 42)) }; return b }),
            ("pub.B", { id in let b = Simple(identifier: id); b.onActivate = { b, _ in b.sendToMotherboard(data: "done\nsecond line"); b.complete(false) }; return b }),
        ])
        mb.activateBoard(identifier: "pub.A", withOption: nil)
        try Self.expectSameRecords(c.text, "next-to-board.log")
    }

    @Test("commands from a board and from the app")
    func commands() throws {
        let c = Capture()
        let mb = c.motherboard([
            ("pub.A", { id in let b = Simple(identifier: id); b.onActivate = { b, _ in b.interactWithOtherBoard(.target("pub.B", "refresh")) }; return b }),
            ("pub.B", { Inter(identifier: $0) }),
        ])
        mb.activateBoard(identifier: "pub.B", withOption: nil)
        mb.activateBoard(identifier: "pub.A", withOption: nil)
        mb.interactWithBoard(command: BoardCommand<String>.target("pub.B", "from-app"))
        try Self.expectSameRecords(c.text, "commands.log")
    }

    @Test("unregistered ids, directly and from a board")
    func unregistered() throws {
        let c = Capture()
        let mb = c.motherboard([
            ("pub.A", { id in let b = Simple(identifier: id); b.onActivate = { b, _ in b.nextToBoard(.target("pub.Missing", "via-next")) }; return b })
        ])
        mb.activateBoard(identifier: "pub.Missing", withOption: "x")
        mb.activateBoard(identifier: "pub.A", withOption: nil)
        try Self.expectSameRecords(c.text, "unregistered.log")
    }
}
