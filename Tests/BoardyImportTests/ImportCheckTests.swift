import BoardyTrace
import Testing

@testable import BoardyImport

/// `ImportCheck` and the scenario skeleton work on an imported app's model alone: these build the
/// model by hand (no sources to parse) and pin what each finds and writes.
@Suite("Checks and skeletons of an imported app")
struct ImportCheckTests {
    static func at(_ line: Int) -> CodeLocation { CodeLocation(file: "App/Flow.swift", line: line) }

    static func board(_ id: String, _ kind: BoardKind = .board, parent: String? = nil, line: Int = 1) -> ImportedBoard {
        ImportedBoard(id: id, kind: kind, module: nil, parent: parent, source: at(line), bypassesGateway: kind.bypassesGatewayByDefault)
    }

    static func edge(_ from: String, _ to: String, _ kind: ImportedEdge.Kind, line: Int, on: String? = nil, byOutput: Bool = false) -> ImportedEdge {
        ImportedEdge(from: from, to: to, kind: kind, on: on, source: at(line), byOutput: byOutput)
    }

    static func app(_ boards: [ImportedBoard], _ edges: [ImportedEdge], entries: [String] = [], silent: [String] = []) -> ImportedApp {
        ImportedApp(
            name: "App", boards: boards, edges: edges, entries: entries.map { EntryPoint(board: $0, source: at(99)) }, unresolved: [], warnings: [],
            filesRead: 1, filesSkipped: 0, gatesWithoutCompletion: boards.filter { silent.contains($0.id) })
    }

    @Test("two boards each gated by the other are one barrier loop, found once, from its smallest id, with both edges")
    func twoBoardLoop() {
        let app = Self.app([Self.board("b"), Self.board("a")], [Self.edge("a", "b", .barrier, line: 10), Self.edge("b", "a", .barrier, line: 20)])
        let loops = ImportCheck.loops(app)
        #expect(loops.map(\.boards) == [["a", "b"]])
        #expect(loops.first?.edges.map(\.source.line) == [10, 20])
        let findings = ImportCheck.check(app)
        #expect(findings.map(\.code) == [.barrierLoop])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message == "barrier loop a → b → a: b waits on a (barrier, App/Flow.swift:10); a waits on b (barrier, App/Flow.swift:20)")
        #expect(findings.first?.sources == [Self.at(10), Self.at(20)])
    }

    @Test("a board gated by itself through the gateway is self-gated, with the gateway's fix")
    func selfGated() {
        let app = Self.app([Self.board("auth")], [Self.edge("auth", "auth", .gateway, line: 5)])
        let f = ImportCheck.check(app)
        #expect(f.map(\.code) == [.selfGated])
        #expect(f.first?.suggestion.contains("exempt the gate from its gateway") == true)
    }

    @Test("flows and activations are not waits: no loop; a gate whose code never completes is a warning")
    func noLoopAndSilentGate() {
        let app = Self.app(
            [Self.board("a"), Self.board("b"), Self.board("gate")],
            [Self.edge("a", "b", .activates, line: 1), Self.edge("b", "a", .flow, line: 2), Self.edge("gate", "a", .barrier, line: 3)], silent: ["gate"])
        #expect(ImportCheck.loops(app).isEmpty)
        let f = ImportCheck.check(app)
        #expect(f.map(\.code) == [.gateNeverCompletes])
        #expect(f.first?.severity == .warning)
    }

    @Test("the skeleton: boards with their sources, a completing gate, an output flow, the gateway with its exemptions, entries at 0")
    func skeleton() {
        let app = Self.app(
            [Self.board("home", line: 1), Self.board("login", line: 2), Self.board("cart", line: 3)],
            [
                Self.edge("login", "cart", .barrier, line: 10), Self.edge("home", "cart", .activates, line: 11, on: "shop", byOutput: true),
                Self.edge("login", "home", .gateway, line: 12), Self.edge("login", "login", .exempt, line: 13),
            ], entries: ["home"])
        let (scenario, notes) = app.scenarioSkeleton()
        #expect(notes.isEmpty)
        #expect(
            scenario.jsonText
                == #"{"scenario":"App","boards":[{"id":"home","source":"App/Flow.swift:1"},{"id":"login","onActivate":[{"complete":true}],"source":"App/Flow.swift:2"},{"id":"cart","activationBarrier":{"board":"login","source":"App/Flow.swift:10"},"source":"App/Flow.swift:3"}],"flows":[{"from":"home","on":"shop","activate":"cart","source":"App/Flow.swift:11"}],"gateway":{"barrier":"login","exempt":["login"],"source":"App/Flow.swift:12"},"script":[{"at":0,"activate":"home"}]}"#
        )
    }

    @Test("the skeleton leaves out what a scenario cannot say and names it: an activation into another motherboard, a continuous board with nothing inside")
    func skeletonNotes() {
        let app = Self.app(
            [Self.board("shell", .continuous, line: 1), Self.board("outer", line: 2), Self.board("flow", .continuous, line: 3), Self.board("inner", parent: "flow", line: 4)],
            [Self.edge("outer", "inner", .activates, line: 20)])
        let (scenario, notes) = app.scenarioSkeleton()
        #expect(notes.contains { $0.contains("shell registers no inner boards; simulated as a plain board") })
        #expect(notes.contains { $0.contains("outer activates inner in another motherboard; left out") })
        let boards = scenario.objectValue?["boards"]?.arrayValue ?? []
        #expect(boards.first?.objectValue?["kind"] == nil, "an empty continuous board becomes a plain board")
        #expect(boards.last?.objectValue?["kind"]?.stringValue == "continuous")
        #expect(boards.last?.objectValue?["boards"]?.arrayValue?.count == 1)
    }
}
