import Foundation
import Testing

@testable import BoardyTrace

func tempPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).jsonl").path
}

@Suite("Trace writer and recorder")
struct TraceObserverTests {
    @Test("the writer writes the header, whole lines, and everything on close")
    func writerWritesLines() throws {
        let path = tempPath("writer")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try TraceWriter(path: path, header: TraceHeader(scenario: "w", definition: "sha256:00"))
        for e in everyKind { w.record(e) }
        try w.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix(#"{"format":"boardy-trace","version":1,"scenario":"w","clock":"virtual","definition":"sha256:00"}"# + "\n"))
        #expect(text.hasSuffix("}\n"))
        #expect(try Trace.read(path: path).events == everyKind)
    }

    @Test("the writer flushes buffered lines within about 100 ms without being closed")
    func writerFlushesByTime() async throws {
        let path = tempPath("flush")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try TraceWriter(path: path, header: TraceHeader())
        w.record(everyKind[0])
        var found = false
        for _ in 0..<40 where !found {
            try await Task.sleep(for: .milliseconds(25))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            found = text.split(separator: "\n").count == 2
        }
        #expect(found, "the event reached the file within 1 s")
        try w.close()
    }

    @Test("the writer flushes whole lines once 64 KiB are buffered")
    func writerFlushesBySize() throws {
        let path = tempPath("size")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try TraceWriter(path: path, header: TraceHeader())
        var seq = 0
        // About 100 KiB of events, faster than the timer.
        while seq < 1000 {
            seq += 1
            w.record(
                TraceEvent(
                    seq: seq, t: .zero, mb: "main", body: .outputSent(board: "b", output: .string(String(repeating: "x", count: 80)))))
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size >= TraceWriter.flushBytes)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "only whole lines reach the file")
        try w.close()
    }

    @Test("a file that cannot be created is an error naming it")
    func writerError() {
        #expect {
            try TraceWriter(path: "/nonexistent/dir/t.jsonl", header: TraceHeader())
        } throws: { error in
            "\(error)" == "/nonexistent/dir/t.jsonl: cannot create: No such file or directory"
        }
    }

    @Test("the recorder loses nothing and keeps each thread's order under 8 threads")
    func recorderConcurrent() async {
        let recorder = TraceRecorder()
        let perThread = 10_000
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for i in 0..<perThread {
                        recorder.record(
                            TraceEvent(seq: i + 1, t: .zero, mb: "t\(thread)", body: .outputSent(board: "b", output: .int(Int64(i)))))
                    }
                }
            }
        }
        let events = recorder.events
        #expect(events.count == 8 * perThread)
        for thread in 0..<8 {
            let mine = events.filter { $0.mb == "t\(thread)" }.map(\.seq)
            #expect(mine == Array(1...perThread))
        }
    }

    @Test("the redaction hook maps or drops payloads before they are stored")
    func redaction() {
        let policy = PayloadPolicy { field, _, value in
            if field == .input { return nil }
            if case .string(let s) = value, s.contains("@") { return .string("<email>") }
            return value
        }
        let recorder = TraceRecorder(policy: policy)
        recorder.record(TraceEvent(seq: 1, t: .zero, mb: "main", body: .activationRequested(board: "a", source: nil, input: "secret")))
        recorder.record(TraceEvent(seq: 2, t: .zero, mb: "main", body: .outputSent(board: "a", output: "me@example.com")))
        recorder.record(
            TraceEvent(seq: 3, t: .zero, mb: "main", body: .stimulus(action: "activate", fields: ["board": "a", "input": "secret"])))
        let e = recorder.events
        #expect(e[0].body == .activationRequested(board: "a", source: nil, input: nil))
        #expect(e[1].body == .outputSent(board: "a", output: "<email>"))
        #expect(e[2].body == .stimulus(action: "activate", fields: ["board": "a"]))
    }

    @Test("payloads over the size cap are cut with a marker, on a character boundary")
    func sizeCap() {
        let recorder = TraceRecorder(policy: PayloadPolicy(maxBytes: 10))
        recorder.record(TraceEvent(seq: 1, t: .zero, mb: "main", body: .outputSent(board: "a", output: .string("ééééééééééé"))))
        recorder.record(TraceEvent(seq: 2, t: .zero, mb: "main", body: .outputSent(board: "a", output: "short")))
        recorder.record(TraceEvent(seq: 3, t: .zero, mb: "main", body: .commandSent(board: "a", command: [1, 2, 3, 4, 5, 6, 7])))
        let e = recorder.events
        #expect(e[0].body == .outputSent(board: "a", output: .string("\"éééé…[cut 15 bytes]")))
        #expect(e[1].body == .outputSent(board: "a", output: "short"))
        #expect(e[2].body == .commandSent(board: "a", command: .string("[1,2,3,4,5…[cut 5 bytes]")))
    }
}

@Suite("Trace recorder batches")
struct TraceRecorderBatchTests {
    func event(_ seq: Int) -> TraceEvent {
        TraceEvent(seq: seq, t: .zero, mb: "main", body: .outputSent(board: "b", output: .int(Int64(seq))))
    }

    @Test("takeRecording hands the batches over as one collection in order, and empties the recorder")
    func recordingAcrossBatches() {
        let recorder = TraceRecorder()
        var seq = 0
        func next(_ n: Int) -> [TraceEvent] { (0..<n).map { _ in seq += 1; return event(seq) } }
        recorder.record(contentsOf: next(300))
        for e in next(3) { recorder.record(e) }
        recorder.record(contentsOf: next(256))
        recorder.record(contentsOf: next(7))
        let recording = recorder.takeRecording()
        #expect(recorder.count == 0 && recorder.events.isEmpty)
        #expect(recording.count == seq)
        #expect(recording.map(\.seq) == Array(1...seq))
        #expect(recording.array().map(\.seq) == Array(1...seq))
        var viaForEach: [Int] = []
        recording.forEachEvent { viaForEach.append($0.seq) }
        #expect(viaForEach == Array(1...seq))
        let header = TraceHeader(scenario: "s", clock: .virtual, definition: nil)
        #expect(recording.jsonl(header: header) == Trace(header: header, events: recording.array()).jsonl)
        #expect(RecordedEvents().isEmpty && RecordedEvents().count == 0)
    }

    @Test("single events and batches (moved in, not copied) keep their order")
    func orderAcrossBatches() {
        let recorder = TraceRecorder()
        var seq = 0
        func next(_ n: Int) -> [TraceEvent] { (0..<n).map { _ in seq += 1; return event(seq) } }
        for e in next(3) { recorder.record(e) }
        recorder.record(contentsOf: next(10))
        recorder.record(contentsOf: next(300))
        for e in next(2) { recorder.record(e) }
        recorder.record(contentsOf: next(256))
        recorder.record(contentsOf: [])
        #expect(recorder.count == seq)
        #expect(recorder.events.map(\.seq) == Array(1...seq))
        recorder.removeAll()
        #expect(recorder.events.isEmpty)
        #expect(recorder.count == 0)
    }

    @Test("more events than the largest segment holds, in every way a recorder takes them: in order, once each")
    func acrossSegments() {
        let recorder = TraceRecorder()
        var seq = 0
        func next(_ n: Int) -> [TraceEvent] { (0..<n).map { _ in seq += 1; return event(seq) } }
        let large = EventSegment.largestCapacity
        recorder.record(contentsOf: next(large + 5))
        for e in next(3) { recorder.record(e) }
        var moving = next(large)
        moving.withUnsafeMutableBufferPointer { b in
            recorder.record(moving: b.baseAddress!, count: b.count)
            // Moved out: the memory is the caller's again.
            b.baseAddress!.initialize(repeating: TraceRecorder.placeholder, count: b.count)
        }
        #expect(recorder.count == seq)
        #expect(recorder.events.map(\.seq) == Array(1...seq))
        let recording = recorder.takeRecording()
        #expect(recording.count == seq && recording.map(\.seq) == Array(1...seq))
        #expect(recording[recording.index(recording.startIndex, offsetBy: large)] == event(large + 1))
        #expect(recorder.count == 0 && recorder.events.isEmpty)
    }

    @Test("removeAll keeping capacity reuses the segments, and what is recorded next is all there")
    func reuseAfterRemoveAll() {
        let recorder = TraceRecorder()
        let n = EventSegment.largestCapacity * 2 + 100
        for round in 0..<3 {
            recorder.record(contentsOf: (1...n).map(event))
            let segments = recorder.lock.withLock { recorder.store.segments.map { ObjectIdentifier($0) } }
            #expect(recorder.events.map(\.seq) == Array(1...n), "round \(round)")
            recorder.removeAll(keepingCapacity: true)
            #expect(recorder.count == 0 && recorder.events.isEmpty)
            recorder.record(contentsOf: (1...n).map(event))
            #expect(recorder.lock.withLock { recorder.store.segments.map { ObjectIdentifier($0) } } == segments, "round \(round): the same memory")
            recorder.removeAll(keepingCapacity: round == 0)
        }
    }

    @Test("a batch another observer holds too is left as it was (a fan-out hands the same array to each)")
    func sharedBatchIsLeftAlone() {
        let recorder = TraceRecorder()
        let batch = (1...300).map(event)
        let other = batch
        recorder.record(contentsOf: batch)
        #expect(other == (1...300).map(event))
        #expect(recorder.events == other)
        let second = TraceRecorder()
        let fanout = TraceFanout([recorder, second])
        fanout.record(contentsOf: (301...400).map(event))
        #expect(recorder.events.map(\.seq) == Array(1...400))
        #expect(second.events.map(\.seq) == Array(301...400))
    }

    @Test("the payload policy applies to events moved in")
    func policyOnMovedEvents() {
        let recorder = TraceRecorder(policy: PayloadPolicy { _, _, _ in .string("x") })
        var batch = (1...10).map(event)
        batch.withUnsafeMutableBufferPointer { b in
            recorder.record(moving: b.baseAddress!, count: b.count)
            b.baseAddress!.initialize(repeating: TraceRecorder.placeholder, count: b.count)
        }
        #expect(recorder.events.map(\.seq) == Array(1...10))
        #expect(recorder.events.allSatisfy { $0.body == .outputSent(board: "b", output: "x") })
    }

    @Test("the payload policy applies to batches too")
    func policyOnBatches() {
        let recorder = TraceRecorder(policy: PayloadPolicy { _, _, _ in .string("x") })
        recorder.record(contentsOf: (1...300).map(event))
        #expect(recorder.events.allSatisfy { $0.body == .outputSent(board: "b", output: "x") })
    }
}
