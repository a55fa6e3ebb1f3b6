import BoardyIngest
import BoardyTestSupport
import BoardyTrace
import BoardyVizCore
import Foundation
import Testing

/// Logs the real Boardy 1.63.1 printed (compiled on Linux, `BOARDY_LOG_ENABLED=YES`) for flows of
/// ours: barriers that release, fail and hang, options, an `.application` barrier across two
/// motherboards, the gateway (passing, failing, hanging, looping), continuous boards, commands,
/// unregistered ids, a busy task board, a sibling completing a board. Each reads with nothing left
/// unparsed into the trace checked in beside it, and says what happened.
@Suite("Ingest: the real Boardy's logs")
struct RealBoardyLogTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/boardy-1.63.1")
    static let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".log") }.sorted() ?? []

    static func ingest(_ name: String) throws -> (header: TraceHeader, events: [TraceEvent], summary: IngestSummary) {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return try BoardyLogIngester.trace(of: text, name: name)
    }

    static func jsonl(_ r: (header: TraceHeader, events: [TraceEvent], summary: IngestSummary)) -> String {
        Trace(header: r.header, events: r.events).jsonl
    }

    @Test("every fixture is there", .tags(.fixtures))
    func fixturesPresent() {
        #expect(Self.names.count == 17, "\(Self.names)")
    }

    @Test("each log reads whole, into its golden trace", arguments: names)
    func golden(_ name: String) throws {
        let r = try Self.ingest(name)
        #expect(r.summary.problems.isEmpty, "\(r.summary.problems)")
        #expect(r.summary.records > 0)
        // Every line is a record's, a warning's, a note's, or counted as not Boardy's.
        #expect(r.summary.foreignLines + r.summary.continuationLines < r.summary.lines)
        // What it writes reads back, strictly.
        let text = Self.jsonl(r)
        let back = try Trace.read(text: text, name: name)
        #expect(back.events == r.events)
        try expectGolden(text, "boardy-1.63.1/" + name.replacingOccurrences(of: ".log", with: ".jsonl"))
    }

    func steps(_ events: [TraceEvent], _ kinds: Set<String> = ["activation.performed", "activation.requested", "output.sent", "board.completed", "command.sent", "activation.cancelled"]) -> [String] {
        events.filter { kinds.contains($0.kind) }.map { e in
            var s = "\(e.kind) \(e.body.board ?? "") @\(e.mb)"
            if case .activationCancelled(_, let reason) = e.body { s += " (\(reason))" }
            return s
        }
    }

    @Test("a barrier that releases: both waiters, named by their released activations, in order")
    func barrierRelease() throws {
        let r = try Self.ingest("barrier-release.log")
        #expect(
            steps(r.events) == [
                "activation.requested pub.Dash @main", "activation.requested pub.Gate @main", "activation.performed pub.Gate @main",
                "activation.requested pub.Dash @main", "board.completed pub.Gate @main", "activation.performed pub.Dash @main",
                "output.sent pub.Dash @main", "activation.performed pub.Dash @main", "output.sent pub.Dash @main",
            ])
        let resolved = r.events.first { $0.kind == "barrier.resolved" }
        #expect(resolved?.body == .barrierResolved(barrier: "pub.Gate", passed: true, released: 2))
        #expect(r.summary.stuck.isEmpty)
    }

    @Test("a gate that fails: its waiters are cancelled, named where the log names them, unknown otherwise")
    func barrierFail() throws {
        let r = try Self.ingest("barrier-fail.log")
        let cancelled = r.events.filter { $0.kind == "activation.cancelled" }
        #expect(cancelled.count == 2)
        #expect(cancelled[0].body == .activationCancelled(board: "pub.Dash", reason: .barrierFailed), "the waiter a Next To Board named")
        #expect(cancelled[1].body == .activationCancelled(board: "", reason: .barrierFailed))
        #expect(cancelled[1].extra["waiter"] == "unknown")
        #expect(cancelled[1].extra["input"] == "direct", "what is known of it: its input")
    }

    @Test("a gate that never completes: stuck, naming the waiter the log names and the input of the one it does not")
    func barrierHang() throws {
        let r = try Self.ingest("barrier-hang.log")
        #expect(r.summary.stuck.count == 1)
        let stuck = try #require(r.events.last)
        #expect(stuck.body == .stuckBarrier(barrier: "pub.Gate", gate: "pub.Gate", waiting: ["pub.Dash", ""]))
        #expect(
            r.summary.stuck[0].sentence
                == "`pub.Dash` and a board the log does not name (activated with `[\"k\": 2]` from line 22) wait behind `pub.Gate`'s barrier (in main); `pub.Gate` was activated at line 18 and never completed"
        )
    }

    @Test("an .application barrier: a wait from a second motherboard joins the run of the first")
    func applicationBarrier() throws {
        let r = try Self.ingest("application-barrier.log")
        let checks = r.events.filter { $0.kind == "barrier.checked" }
        #expect(checks.count == 2)
        if case .barrierChecked(_, _, let scope, _) = checks[1].body { #expect(scope == "application") }
        let resolved = r.events.filter { $0.kind == "barrier.resolved" }
        #expect(resolved.count == 1)
        #expect(r.events.filter { $0.kind == "activation.performed" && $0.body.board == "pub.Transfer" }.map(\.mb).count == 2)
        #expect(r.summary.stuck.isEmpty)
    }

    @Test("the gateway: a run per destination, the exempt gate's own proxy passing at once, the release")
    func gateway() throws {
        let r = try Self.ingest("gateway.log")
        let performed = r.events.filter { $0.kind == "activation.performed" }.compactMap(\.body.board).filter { !$0.contains("___") }
        #expect(performed == ["pub.Auth", "pub.Home", "pub.Auth", "pub.Settings"])
        let home = try #require(r.events.first { $0.kind == "activation.performed" && $0.body.board == "pub.Home" })
        #expect(home.body == .activationPerformed(board: "pub.Home", input: "h1"))
        // The gate runs inside the proxy's motherboard, named as the log names it.
        let auth = try #require(r.events.first { $0.kind == "activation.performed" && $0.body.board == "pub.Auth" })
        #expect(auth.mb == "pub.Home.___GATEWAY___.continuous-main")
        #expect(r.summary.stuck.isEmpty)
    }

    @Test("a gateway whose gate never completes: stuck, with the gate inside its proxy")
    func gatewayHang() throws {
        let r = try Self.ingest("gateway-hang.log")
        #expect(r.summary.stuck.count == 1)
        let s = r.summary.stuck[0].sentence
        #expect(s.hasPrefix("`pub.Dashboard` waits, with 2 activations held, behind the gateway for `pub.Dashboard`"), "\(s)")
        let stuck = try #require(r.events.first { $0.kind == "stuck" })
        #expect(stuck.body == .stuckBarrier(barrier: "pub.Dashboard.___GATEWAY___", gate: "pub.Dashboard.___GATEWAY___", waiting: ["pub.Dashboard"]))
        #expect(stuck.extra["held"] == 2)
        #expect(s.hasSuffix("inside it `mod.Auth.Login` was activated at line 37 and never completed"), "\(s)")
    }

    @Test("a gateway whose gate fails: the destination is cancelled")
    func gatewayFail() throws {
        let r = try Self.ingest("gateway-fail.log")
        #expect(r.events.contains { $0.body == .activationCancelled(board: "pub.Orders", reason: .barrierFailed) })
        #expect(!r.events.contains { $0.kind == "activation.performed" && $0.body.board == "pub.Orders" })
    }

    @Test("a gate gated by its own gateway: Boardy recurses until it crashes; the log reads as a loop")
    func gatewayLoop() throws {
        let r = try Self.ingest("gateway-loop.log")
        #expect(r.summary.loops.map(\.board) == ["mod.Auth.Gate"])
        #expect(r.events.contains { $0.body == .barrierLoop(board: "mod.Auth.Gate", cycle: ["mod.Auth.Gate"]) })
        // The loop is one stuck report, not one per nested run.
        #expect(r.summary.stuck.count == 3, "\(r.summary.stuck.map(\.sentence))")
        #expect(r.summary.unterminated == false)
    }

    @Test("unregistered ids: a NoBoard's activation is a cancellation, with Boardy's note")
    func unregistered() throws {
        let r = try Self.ingest("unregistered.log")
        let cancelled = r.events.filter { $0.kind == "activation.cancelled" }
        #expect(cancelled.map(\.body) == [.activationCancelled(board: "pub.Missing", reason: .unregistered), .activationCancelled(board: "pub.Missing", reason: .unregistered)])
        #expect(cancelled[0].extra["detail"]?.stringValue?.contains("Feature Not Found") == true)
        // The second came from a board's request, which is its cause.
        let request = try #require(r.events.first { $0.kind == "activation.requested" && $0.body.board == "pub.Missing" && $0.extra["boardType"] != nil })
        #expect(cancelled[1].cause == request.seq)
    }

    @Test("commands: a board's Send Command and the Interaction after it are one command; the app's own is one too")
    func commands() throws {
        let r = try Self.ingest("commands.log")
        let commands = r.events.filter { $0.kind == "command.sent" }
        #expect(commands.map(\.body) == [.commandSent(board: "pub.B", command: "refresh"), .commandSent(board: "pub.B", command: "from-app")])
        #expect(commands[0].extra["sender"] == "pub.A")
        // What the board sends while handling the command is the command's doing.
        let reply = try #require(r.events.first { $0.kind == "output.sent" && $0.body.board == "pub.B" })
        #expect(reply.cause == commands[0].seq)
    }

    @Test("a sibling completing a board, twice: the board completes, and the second completion reached nothing")
    func completer() throws {
        let r = try Self.ingest("completer-and-orphan.log")
        let completions = r.events.filter { $0.kind == "board.completed" }
        #expect(completions.count == 2)
        #expect(completions[0].body == .boardCompleted(board: "pub.Sheet", success: true))
        #expect(completions[0].extra["completedBy"] == "pub.Closer")
        #expect(completions[1].extra["delivered"] == false)
        // The completed board's later output: no motherboard (Boardy says so); where it was seen.
        let late = try #require(r.events.first { $0.kind == "output.sent" })
        #expect(late.extra["dropped"] == "no-motherboard")
        #expect(late.mb == "")
        #expect(late.extra["seenIn"] == "main")
    }

    @Test("a busy task board: the activation it refuses is cancelled as busy")
    func busy() throws {
        let r = try Self.ingest("task-busy.log")
        #expect(r.events.contains { $0.body == .activationCancelled(board: "pub.Fetch", reason: .busy) })
        #expect(r.events.filter { $0.kind == "activation.performed" }.count == 1)
    }

    @Test("the flow graph of a trace read from a log keys a continuous board's boards under it, as an app's imported graph does")
    func nestedKeys() throws {
        let r = try Self.ingest("flow-action-nested.log")
        let trace = Trace(header: r.header, events: r.events)
        let keys = FlowModel(trace: trace).boards.map(\.key)
        #expect(keys.contains("pub.Outer/pub.Mid/pub.Deep"), "\(keys)")
        #expect(keys.contains("pub.Outer/pub.Mid") && keys.contains("pub.Outer"), "\(keys)")
        #expect(!keys.contains("pub.Deep"), "\(keys)")
        // Read as a table, the same.
        let table = try TraceTable.read(bytes: Array(Self.jsonl(r).utf8), name: "flow-action-nested.jsonl")
        #expect(try FlowModel(table: table).boards.map(\.key) == keys)
    }

    @Test("a flow action relayed up two continuous boards: one output, then its relays and forwards, hop by hop")
    func flowAction() throws {
        let r = try Self.ingest("flow-action-nested.log")
        let outputs = r.events.filter { $0.kind == "output.sent" }
        #expect(outputs.map { "\($0.body.board ?? "")@\($0.mb)" } == ["pub.Deep@pub.Mid.continuous-main"])
        #expect(outputs.allSatisfy { $0.extra["flowAction"] == true })
        let hops = r.events.compactMap { e -> String? in
            guard case .flowRouted(let from, _, _, let action) = e.body else { return nil }
            return "\(action) \(from)@\(e.mb)"
        }
        #expect(
            hops == [
                "relay pub.Deep@pub.Mid.continuous-main", "forward pub.Mid@pub.Outer.continuous-main", "relay pub.Mid@pub.Outer.continuous-main",
                "forward pub.Outer@main", "relay pub.Outer@main",
            ])
        // Each hop is caused by the one before it, back to the output.
        let routed = r.events.filter { $0.kind == "flow.routed" }
        #expect(routed.first?.cause == outputs.first?.seq)
        for (a, b) in zip(routed, routed.dropFirst()) { #expect(b.cause == a.seq) }
        // The graph draws one edge per hop out of a continuous board.
        let links = FlowModel(trace: Trace(header: r.header, events: r.events)).links.map { "\($0.from) → \($0.to)" }
        #expect(links == ["pub.Outer/pub.Mid/pub.Deep → pub.Outer/pub.Mid", "pub.Outer/pub.Mid → pub.Outer"], "\(links)")
    }

    @Test("a continuous board given a motherboard of its own (a random id): its hop is a forward; another board's same action is an output")
    func flowActionOwnMotherboard() throws {
        let r = try Self.ingest("flow-action-own-motherboard.log")
        let outputs = r.events.filter { $0.kind == "output.sent" }.map { "\($0.body.board ?? "")\($0.extra["flowAction"] == true ? " (flow action)" : "")" }
        #expect(outputs == ["pub.Pin (flow action)", "pub.Pin", "pub.Other (flow action)"])
        let forwards = r.events.compactMap { e -> String? in
            guard case .flowRouted(let from, _, _, "forward") = e.body else { return nil }
            return "\(from)@\(e.mb)"
        }
        #expect(forwards == ["pub.Security@pub.Outer.continuous-main", "pub.Outer@main"])
    }

    @Test("a value that spans lines keeps its lines; the app's own prints are counted, not read")
    func multiline() throws {
        let r = try Self.ingest("outputs-and-flows.log")
        let receipt = try #require(r.events.first { $0.kind == "output.sent" && $0.body.board == "pub.Order" })
        #expect(receipt.body == .outputSent(board: "pub.Order", output: "Receipt #42\n  items: 3\n  total: 9.99"))
        #expect(r.summary.foreignLines == 2)
    }
}

extension Tag {
    @Tag static var fixtures: Self
}
