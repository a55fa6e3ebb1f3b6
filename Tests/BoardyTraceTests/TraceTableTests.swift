import Foundation
import Testing

@testable import BoardyTrace

/// The fast path (``TraceTable``) reads what ``TraceReader`` reads and refuses what it refuses,
/// with the same error at the same place: on every sample, on every sample damaged byte by
/// byte, and on the lines at the edges of what the fast pass reads itself.
@Suite("Trace table (the fast path)")
struct TraceTableTests {
    static let samples = CorruptedTraceTests.samples
    static let header = #"{"format":"boardy-trace","version":1,"scenario":"t","clock":"virtual"}"#

    static func bytes(_ lines: [String]) -> [UInt8] { Array((([header] + lines).joined(separator: "\n") + "\n").utf8) }

    static func expectSame(_ bytes: [UInt8], _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for order in [TraceReader.OrderChecking.strict, .lenient] {
            let difference = TraceTable.differenceFromReader(bytes, order: order)
            #expect(difference == nil, "\(comment) (\(order)): \(difference ?? "")", sourceLocation: sourceLocation)
        }
    }

    @Test("every sample reads the same, and the fast pass reads most of its lines itself", arguments: samples)
    func samplesReadTheSame(name: String) throws {
        let lines = try CorruptedTraceTests.lines(name)
        let bytes = CorruptedTraceTests.join(lines)
        Self.expectSame(bytes, name)
        let fast = lines.dropFirst().filter { line in line.withUnsafeBufferPointer { LineScanner.scan($0) != nil } }.count
        let table = try TraceTable.read(bytes: bytes, name: name)
        #expect(table.count == lines.count - 1)
        // Stimulus, dispatch and stuck lines go to the full parser; the routing lines do not.
        let routing = lines.dropFirst().filter { line in
            let s = String(decoding: line, as: UTF8.self)
            return ["activation.", "output.sent", "flow.routed", "board.completed", "barrier.started", "barrier.resolved"].contains {
                s.contains("\"kind\":\"\($0)")
            } && !s.contains("\\") && !s.contains("\"dropped\"") && !s.contains("\"flowAction\"") && !s.contains("\"detail\"")
        }.count
        #expect(fast >= routing, "\(name): the fast pass read \(fast) lines of \(lines.count - 1), \(routing) routing lines")
    }

    @Test("any byte of any sample flipped, deleted or doubled, and any line cut: the same verdict", arguments: samples)
    func damagedSamples(name: String) throws {
        let lines = try CorruptedTraceTests.lines(name)
        let bytes = CorruptedTraceTests.join(lines)
        // Every position, in the first ten event lines (all kinds of the sample appear there
        // or later lines repeat them).
        let end = min(bytes.count, lines.prefix(12).reduce(0) { $0 + $1.count + 1 })
        for position in lines[0].count..<end {
            for flip: UInt8 in [0x01, 0x02, 0x08, 0x20, 0x40, 0x80] {
                var damaged = bytes
                damaged[position] ^= flip
                Self.expectSame(damaged, "\(name) byte \(position) ^ \(flip)")
            }
            var deleted = bytes
            deleted.remove(at: position)
            Self.expectSame(deleted, "\(name) byte \(position) deleted")
            var doubled = bytes
            doubled.insert(bytes[position], at: position)
            Self.expectSame(doubled, "\(name) byte \(position) doubled")
            for inserted in [UInt8(ascii: " "), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "e"), 0xC3, 0x00, 0x0A, 0x0D] {
                var more = bytes
                more.insert(inserted, at: position)
                Self.expectSame(more, "\(name) byte \(inserted) inserted at \(position)")
            }
        }
        for cut in stride(from: lines[0].count + 1, to: bytes.count, by: 7) {
            Self.expectSame(Array(bytes[..<cut]), "\(name) cut at \(cut)")
        }
    }

    static let edgeLines: [(String, String)] = [
        ("plain", #"{"seq":1,"t":0,"kind":"activation.requested","mb":"main","board":"a","source":"b","input":{"x":[1,2.5,-3,true,false,null,"s"]}}"#),
        ("t with six decimals", #"{"seq":1,"t":1073741823.999999,"kind":"board.completed","mb":"main","board":"a","success":true}"#),
        ("t at 2^30 s", #"{"seq":1,"t":1073741824.5,"kind":"board.completed","mb":"main","board":"a"}"#),
        ("t with seven decimals", #"{"seq":1,"t":0.1234567,"kind":"board.completed","mb":"main","board":"a"}"#),
        ("t with an exponent", #"{"seq":1,"t":1e3,"kind":"board.completed","mb":"main","board":"a"}"#),
        ("t negative", #"{"seq":1,"t":-1,"kind":"board.completed","mb":"main","board":"a"}"#),
        ("t with a leading zero", #"{"seq":1,"t":01,"kind":"board.completed","mb":"main","board":"a"}"#),
        ("t as a string", #"{"seq":1,"t":"0","kind":"board.completed","mb":"main","board":"a"}"#),
        ("seq 0", #"{"seq":0,"t":0,"kind":"board.completed","mb":"main","board":"a"}"#),
        ("seq of 19 digits", #"{"seq":1000000000000000001,"t":0,"kind":"board.completed","mb":"main","board":"a"}"#),
        ("cause equal to seq", #"{"seq":1,"t":0,"kind":"board.completed","mb":"main","board":"a","cause":1}"#),
        ("cause null", #"{"seq":1,"t":0,"kind":"board.completed","mb":"main","board":"a","cause":null}"#),
        ("escaped board", #"{"seq":1,"t":0,"kind":"board.completed","mb":"main","board":"a\"b\u00e9"}"#),
        ("board outside ASCII", #"{"seq":1,"t":0,"kind":"board.completed","mb":"main","board":"café"}"#),
        ("board not UTF-8", "{\"seq\":1,\"t\":0,\"kind\":\"board.completed\",\"mb\":\"main\",\"board\":\"a\u{7F}\"}"),
        ("to null", #"{"seq":1,"t":0,"kind":"flow.routed","mb":"main","from":"a","output":1,"to":null,"action":"activate"}"#),
        ("routing without to", #"{"seq":1,"t":0,"kind":"flow.routed","mb":"main","from":"a","output":1,"action":"handler"}"#),
        ("members out of order", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","output":1,"board":"a"}"#),
        ("missing output", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a"}"#),
        ("an extra member", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":1,"flowAction":true}"#),
        ("a duplicated member", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":1,"output":2}"#),
        ("duplicate nested keys", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":{"k":1,"k":2}}"#),
        ("many nested keys", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":{"# + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}}"),
        ("deep nesting", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"),
        ("too deep", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"),
        ("a big number", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":123456789012345678901234567890.5}"#),
        ("an exponent", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":1e999}"#),
        ("a trailing comma", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":[1,]}"#),
        ("whitespace", #"{"seq":1, "t":0,"kind":"output.sent","mb":"main","board":"a","output":1}"#),
        ("trailing whitespace", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":1} "#),
        ("trailing text", #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":1}x"#),
        ("released as a fraction", #"{"seq":1,"t":0,"kind":"barrier.resolved","mb":"main","barrier":"g","passed":true,"released":1.5}"#),
        ("released negative", #"{"seq":1,"t":0,"kind":"barrier.resolved","mb":"main","barrier":"g","passed":true,"released":-2}"#),
        ("passed as a number", #"{"seq":1,"t":0,"kind":"barrier.resolved","mb":"main","barrier":"g","passed":1,"released":0}"#),
        ("an unknown kind", #"{"seq":1,"t":0,"kind":"custom.kind","mb":"main","board":"a"}"#),
        ("an empty kind", #"{"seq":1,"t":0,"kind":"","mb":"main"}"#),
        ("a long board", #"{"seq":1,"t":0,"kind":"board.completed","mb":"main","board":""# + String(repeating: "b", count: 100) + "\"}"),
        ("a long board with a quote at 17", #"{"seq":1,"t":0,"kind":"board.completed","mb":"main","board":""# + String(repeating: "b", count: 17) + "\"\"}"),
    ]

    /// The rows `reader` hands out: each row's fields, its strings spelled out, and whether
    /// the fast pass read it.
    static func rows(_ reader: inout TraceReader) throws -> [String] {
        var out: [String] = []
        while try reader.nextRow({ row, strings in
            let board = row.board < 0 ? "-" : strings[row.board]
            out.append("\(row.line) \(row.seq) \(row.t) \(strings[row.kind]) \(strings[row.mb]) \(board) \(row.cause) \(row.decodedEvent == nil)")
        }) {}
        return out
    }

    @Test("a trace arriving through a pipe a few bytes at a time: the same rows, each line read by the same pass", arguments: [1, 3, 7, 61, 4096])
    func throughAPipe(piece: Int) throws {
        // The fast pass finds a line's end itself in the bytes held; a line not held whole must
        // wait for the rest and read as it would from a file.
        for name in Self.samples {
            let bytes = CorruptedTraceTests.join(try CorruptedTraceTests.lines(name))
            var whole = try TraceReader(bytes: bytes, name: name)
            let expected = try Self.rows(&whole)
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let (readEnd, writeEnd) = (fds[0], fds[1])
            let writer = Thread {
                var at = 0
                while at < bytes.count {
                    let n = min(piece, bytes.count - at)
                    let wrote = bytes[at..<(at + n)].withUnsafeBytes { write(writeEnd, $0.baseAddress, n) }
                    if wrote <= 0 { break }
                    at += wrote
                }
                close(writeEnd)
            }
            writer.start()
            var piped = try TraceReader(fileDescriptor: readEnd, name: name)
            let got = try Self.rows(&piped)
            close(readEnd)
            #expect(got == expected, "\(name), \(piece) bytes at a time")
        }
    }

    @Test("numbers that look like the line before's: a seq, t or cause whose text starts as a known one reads as itself")
    func numbersLikeTheLineBefore() {
        func line(_ seq: String, _ t: String, cause: String?) -> String {
            #"{"seq":\#(seq),"t":\#(t),"kind":"board.completed","mb":"m","board":"b""# + (cause.map { #","cause":\#($0)"# } ?? "") + "}"
        }
        let cases: [[String]] = [
            [line("1", "0.5", cause: nil), line("2", "0.55", cause: "1"), line("3", "0.5", cause: "2")],
            [line("1", "7", cause: nil), line("2", "7.25", cause: "1"), line("3", "7e0", cause: "2")],
            [line("1", "0", cause: nil), line("2", "0", cause: "11"), line("3", "0", cause: "2.0")],
            [line("1", "0", cause: nil), line("2", "0", cause: "1e0"), line("3", "0", cause: "1")],
            [line("9", "1", cause: nil), line("10", "1", cause: "9"), line("11", "1", cause: "10"), line("12", "10", cause: "1")],
            [line("1", "0", cause: nil), line("2", "0", cause: "01"), line("3", "00", cause: "2")],
            [line("99999999", "3", cause: nil), line("100000000", "3", cause: "99999999"), line("100000001", "3", cause: "100000000")],
            [line("1234567890123456", "1.000001", cause: nil), line("1234567890123457", "1.000001", cause: "1234567890123456"),
             line("1234567890123458", "1.0000011", cause: "1234567890123457")],
        ]
        for lines in cases {
            Self.expectSame(Self.bytes(lines), lines.joined(separator: " / "))
        }
        // A long run: seq up by one, t now the same, now new, causes the line before's or not,
        // now and then a number with more after it.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % n
        }
        var lines: [String] = []
        var t = 0
        for seq in 1...3000 {
            if next(3) == 0 { t += Int(next(20)) }
            let tText = next(50) == 0 ? "\(t).5" : next(50) == 0 ? "\(t)e0" : "\(t)"
            let cause: String? =
                seq == 1 ? nil : next(4) == 0 ? String(1 + Int(next(UInt64(seq - 1)))) : next(40) == 0 ? "\(seq - 1)0" : "\(seq - 1)"
            lines.append(line("\(seq)", tText, cause: cause))
        }
        Self.expectSame(Self.bytes(lines), "a long run")
    }

    @Test("after an order error the line is behind the reader: the next call reads the next line, numbered as such")
    func orderErrorConsumesTheLine() throws {
        let lines = [
            #"{"seq":1,"t":0,"kind":"board.completed","mb":"m","board":"a"}"#,
            #"{"seq":3,"t":0,"kind":"board.completed","mb":"m","board":"b"}"#,
            #"{"seq":2,"t":0,"kind":"board.completed","mb":"m","board":"c"}"#,
        ]
        var reader = try TraceReader(bytes: Self.bytes(lines), name: "t")
        var seen: [Int] = []
        #expect(try reader.nextRow { row, _ in seen.append(row.line) })
        #expect(throws: TraceReadError.self) { try reader.nextRow { row, _ in seen.append(row.line) } }
        // The full reader consumes a line before its checks too: the third line comes next.
        #expect(try reader.nextRow { row, _ in seen.append(row.line) })
        #expect(seen == [2, 4])
    }

    @Test("lines at the edges of the fast pass: the same verdict as the reader's", arguments: edgeLines.indices)
    func edges(index: Int) {
        let (name, line) = Self.edgeLines[index]
        Self.expectSame(Self.bytes([line]), name)
        // After a first event too (seq 2, a cause).
        let second = line.replacingOccurrences(of: #"{"seq":1,"#, with: #"{"seq":2,"#)
        Self.expectSame(Self.bytes([Self.edgeLines[0].1, second]), "\(name), second")
        // Cut off without its newline.
        var cut = Self.bytes([line])
        cut.removeLast()
        Self.expectSame(cut, "\(name), without a newline")
    }

    @Test("the fast pass reads the writer's lines itself, and the columns are right")
    func columns() throws {
        let events: [TraceEvent] = [
            TraceEvent(seq: 1, t: .zero, mb: "main", body: .activationRequested(board: "a", source: nil, input: .object(["k": [1, "x"]]))),
            TraceEvent(seq: 2, t: TraceTime(microseconds: 1_500), mb: "main", cause: 1, body: .activationPerformed(board: "a", input: nil)),
            TraceEvent(seq: 3, t: TraceTime(microseconds: 1_500), mb: "main/a", cause: 2, body: .outputSent(board: "b", output: "done")),
            TraceEvent(seq: 4, t: TraceTime(microseconds: 2_000_001), mb: "main", cause: 3, body: .flowRouted(from: "b", output: "done", to: "c", action: "activate")),
            TraceEvent(seq: 5, t: TraceTime(microseconds: 2_000_001), mb: "main", cause: 4, body: .barrierResolved(barrier: "g", passed: false, released: 3)),
            TraceEvent(seq: 6, t: TraceTime(microseconds: 3_000_000), mb: "main", body: .boardCompleted(board: "a", success: nil)),
        ]
        for e in events {
            Array(e.jsonLine.utf8).withUnsafeBufferPointer { #expect(LineScanner.scan($0) != nil, "\(e.jsonLine)") }
        }
        let text = TraceHeader(scenario: "s").jsonl(events, count: events.count)
        let table = try TraceTable.read(bytes: Array(text.utf8), name: "t")
        #expect(table.count == 6)
        #expect(table[2] == TraceTable.Row(seq: 3, t: TraceTime(microseconds: 1_500), kind: "output.sent", eventKind: .outputSent, mb: "main/a", board: "b", cause: 2, line: 4))
        #expect(table[3].board == "b")
        #expect(table[4].board == nil)
        #expect(table.eventKind(at: 5) == .boardCompleted)
        #expect(table.value("released", at: 4) == .int(3))
        #expect(table.value("nothing", at: 4) == nil)
        #expect(try table.trace().events == events)
        // "main" and "a" interned once each.
        #expect(table.mbs[0] == table.mbs[1] && table.mbs[0] != table.mbs[2])
        #expect(table.strings.id(of: "a") == table.boards[0])
        #expect(table.strings[table.kinds[3]] == "flow.routed")
    }

    @Test("a string interned from a fast line and from a full-parser line gets one number, at every length")
    func oneNumberPerString() throws {
        for length in 0...40 {
            let name = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            let fast = #"{"seq":1,"t":0,"kind":"board.completed","mb":"m","board":"\#(name)"}"#
            let slow = #"{"seq":2,"t":0,"kind":"board.completed","mb":"m","board":"\#(name)","extra":1}"#
            let table = try TraceTable.read(bytes: Self.bytes([fast, slow]), name: "t")
            #expect(table.boards[0] == table.boards[1], "length \(length)")
            #expect(table[0].board == name && table.strings.id(of: name) == table.boards[0])
            // The other order: the full parser's line interns first, the fast one finds it.
            let slowFirst = slow.replacingOccurrences(of: #""seq":2"#, with: #""seq":1"#)
            let fastSecond = fast.replacingOccurrences(of: #""seq":1"#, with: #""seq":2"#)
            var reader = try TraceReader(bytes: Self.bytes([slowFirst, fastSecond]), name: "t")
            var rows: [(board: Int32, fast: Bool)] = []
            while try reader.nextRow({ row, _ in rows.append((row.board, row.decodedEvent == nil)) }) {}
            #expect(rows.count == 2 && rows[0].board == rows[1].board, "length \(length), full parser first")
            #expect(rows.map(\.fast) == [false, true])
            Array(fast.utf8).withUnsafeBufferPointer { #expect(LineScanner.scan($0) != nil) }
        }
        for kind in EventKind.allCases { #expect(LineScanner.number(of: kind) == TraceTable.id(of: kind)) }
    }

    @Test("interning in place and by string find each other across every growth of the table, short and long alike")
    func internInPlaceAcrossGrowth() {
        let names = (0..<3000).map { i in String(repeating: "ab", count: i % 20) + "b\(i)" }
        var t = StringTable()
        var ids: [Int32] = []
        // Alternate the two ways in: in place (the fast path's), then by string.
        func inPlace(_ name: String) -> Int32 {
            // Eight bytes of line before the string, as the fast path guarantees.
            let line = Array(("{\"seq\":1,\"" + name).utf8)
            return line.withUnsafeBufferPointer { t.internInLine($0.baseAddress! + 10, name.utf8.count) }
        }
        for (i, n) in names.enumerated() { ids.append(i % 2 == 0 ? inPlace(n) : t.intern(n)) }
        #expect(Set(ids).count == names.count)
        for (i, n) in names.enumerated() {
            #expect(inPlace(n) == ids[i] && t.intern(n) == ids[i] && t[ids[i]] == n, "\(n)")
        }
        #expect(t.count == names.count)
    }

    @Test("interning: a thousand strings and back, alike names apart")
    func interning() {
        var t = StringTable()
        var ids: [Int32] = []
        for i in 0..<1000 { ids.append(t.intern("board\(i)")) }
        for i in 0..<1000 {
            #expect(t.intern("board\(i)") == ids[i])
            #expect(t[ids[i]] == "board\(i)")
        }
        #expect(Set(ids).count == 1000)
        #expect(t.intern("") == t.intern(""))
        #expect(t.id(of: "nothing") == nil)
        #expect(t.count == 1001)
    }
}

/// ``TraceEvent/matches(line:)`` says true exactly when the line is the writer's bytes for the
/// event: replay trusts it to skip decoding.
@Suite("Matching an event with a line in place")
struct LineMatcherTests {
    static func matches(_ e: TraceEvent, _ line: String) -> Bool {
        Array(line.utf8).withUnsafeBufferPointer { e.matches(line: $0) }
    }

    @Test("every sample event matches its own line and no other; any changed byte does not match", arguments: CorruptedTraceTests.samples)
    func samples(name: String) throws {
        let trace = try Trace.read(text: String(decoding: CorruptedTraceTests.join(try CorruptedTraceTests.lines(name)), as: UTF8.self))
        let lines = trace.events.map(\.jsonLine)
        for (i, e) in trace.events.enumerated() {
            #expect(Self.matches(e, lines[i]), "\(lines[i])")
            for j in lines.indices where j != i && lines[j] != lines[i] { #expect(!Self.matches(e, lines[j])) }
            var bytes = Array(lines[i].utf8)
            for position in Set([0, bytes.count / 4, bytes.count / 2, bytes.count - 2, bytes.count - 1]) {
                let saved = bytes[position]
                bytes[position] ^= 0x01
                #expect(!bytes.withUnsafeBufferPointer { e.matches(line: $0) }, "\(lines[i]) byte \(position)")
                bytes[position] = saved
            }
            #expect(!Self.matches(e, lines[i] + " "))
            #expect(!Self.matches(e, String(lines[i].dropLast())))
        }
    }

    @Test("numbers, times, escapes and extra fields: a match is the writer's bytes")
    func edges() {
        let events: [TraceEvent] = [
            TraceEvent(seq: 1, t: TraceTime(microseconds: 1_000_001), mb: "main", body: .outputSent(board: "a", output: .double(2.5))),
            TraceEvent(seq: 12, t: TraceTime(microseconds: 100), mb: "main", cause: 9, body: .outputSent(board: "a\"b\\c\u{1}é", output: .int(-42))),
            TraceEvent(seq: 3, t: TraceTime(microseconds: 120_000), mb: "main", body: .barrierResolved(barrier: "g", passed: true, released: 0)),
            TraceEvent(seq: 4, t: .zero, mb: "main/x", body: .unknown(kind: "new.kind", fields: ["k": [1, ["z": nil]]]), extra: ["more": true]),
            TraceEvent(seq: 5, t: TraceTime(microseconds: 7_000_000), mb: "main", body: .stimulus(action: "activate", fields: ["board": "a"])),
            TraceEvent(seq: 6, t: TraceTime(microseconds: -5), mb: "main", body: .boardCompleted(board: "a", success: false)),
        ]
        for e in events {
            #expect(Self.matches(e, e.jsonLine), "\(e.jsonLine)")
        }
        let e = events[0]
        // The same value spelled otherwise reads the same but is not the writer's bytes.
        #expect(!Self.matches(e, e.jsonLine.replacingOccurrences(of: #""t":1.000001"#, with: #""t":1.0000010"#)))
        #expect(!Self.matches(e, e.jsonLine.replacingOccurrences(of: #""seq":1,"#, with: #""seq":01,"#)))
        #expect(!Self.matches(e, e.jsonLine.replacingOccurrences(of: #""seq":1,"#, with: #""seq":10,"#)))
        #expect(!Self.matches(events[2], events[2].jsonLine.replacingOccurrences(of: #""t":0.12"#, with: #""t":0.120"#)))
        #expect(!Self.matches(events[2], events[2].jsonLine.replacingOccurrences(of: #""t":0.12"#, with: #""t":0.1"#)))
        #expect(!Self.matches(events[2], events[2].jsonLine.replacingOccurrences(of: #""t":0.12"#, with: #""t":0"#)))
        #expect(!Self.matches(events[2], events[2].jsonLine.replacingOccurrences(of: #""released":0"#, with: #""released":00"#)))
    }
}
