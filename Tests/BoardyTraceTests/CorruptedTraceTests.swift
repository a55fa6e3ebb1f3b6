import Foundation
import Testing

@testable import BoardyTrace

/// Every sample trace, damaged every way a crash, a disk or a person damages files (contract
/// §2): a cut after any line is a shorter trace; a cut inside the last line is a warning with
/// every event before it kept; any other damage is malformed input reported at its line (or at
/// the next line, when it only shows there); nothing crashes.
@Suite("Corrupted traces")
struct CorruptedTraceTests {
    static let samples = ["checkout", "barrier-loop", "stuck-gate", "add-to-cart", "analytics-dispatch"]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func lines(_ name: String) throws -> [[UInt8]] {
        let data = try Data(contentsOf: root.appendingPathComponent("samples/traces/\(name).jsonl"))
        return Array(data).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
    }

    static func join(_ lines: [[UInt8]], endingWithNewline: Bool = true) -> [UInt8] {
        var out = Array(lines.joined(separator: [0x0A]))
        if endingWithNewline, !lines.isEmpty { out.append(0x0A) }
        return out
    }

    enum Outcome: Equatable {
        case read(events: Int, warnings: Int)
        case failed(line: Int)
    }

    static func read(_ bytes: [UInt8]) -> Outcome {
        do {
            var r = try TraceReader(bytes: bytes, name: "damaged.jsonl")
            let t = try r.readAll()
            return .read(events: t.events.count, warnings: t.warnings.count)
        } catch {
            return .failed(line: error.line)
        }
    }

    @Test("cut after any line: the lines before it; cut inside a line: a warning, every event before it kept", arguments: samples)
    func truncations(name: String) throws {
        let lines = try Self.lines(name)
        #expect(Self.read([]) == .failed(line: 1))
        for keep in 1...lines.count {
            #expect(Self.read(Self.join(Array(lines[..<keep]))) == .read(events: keep - 1, warnings: 0), "cut after line \(keep)")
            // The same lines with the last one's newline missing read the same.
            #expect(Self.read(Self.join(Array(lines[..<keep]), endingWithNewline: false)) == .read(events: keep - 1, warnings: 0))
        }
        // The header cut: malformed. An event line cut anywhere inside: a truncation.
        for cut in [1, lines[0].count / 2, lines[0].count - 1] {
            #expect(Self.read(Array(lines[0].prefix(cut))) == .failed(line: 1))
        }
        for i in 1..<lines.count {
            let prefix = Self.join(Array(lines[..<i]))
            for cut in Set([1, lines[i].count / 2, lines[i].count - 1]) {
                #expect(Self.read(prefix + lines[i].prefix(cut)) == .read(events: i - 1, warnings: 1), "cut inside line \(i + 1) at \(cut)")
            }
        }
    }

    @Test("a flipped byte in any line: read as another valid trace, or reported at that line or the next", arguments: samples)
    func flippedBytes(name: String) throws {
        let lines = try Self.lines(name)
        for i in lines.indices {
            for position in Set([0, lines[i].count / 3, lines[i].count / 2, lines[i].count - 1]) {
                for flip: UInt8 in [0x01, 0x20, 0x80] {
                    var damaged = lines
                    damaged[i][position] ^= flip
                    if damaged[i][position] == 0x0A { continue }  // a new line break: the joins test that
                    switch Self.read(Self.join(damaged)) {
                    case .read(let events, let warnings):
                        #expect(events == lines.count - 1 && warnings == 0, "line \(i + 1) byte \(position) ^ \(flip)")
                    case .failed(let line):
                        #expect(line == i + 1 || line == i + 2, "line \(i + 1) byte \(position) ^ \(flip): reported at line \(line)")
                    }
                }
            }
        }
    }

    @Test("a duplicated or missing event line is reported at its line", arguments: samples)
    func duplicatedAndMissing(name: String) throws {
        let lines = try Self.lines(name)
        for i in 1..<lines.count {
            var dup = lines
            dup.insert(lines[i], at: i)
            #expect(Self.read(Self.join(dup)) == .failed(line: i + 2), "line \(i + 1) duplicated")
            var missing = lines
            missing.remove(at: i)
            let expected: Outcome = i == lines.count - 1 ? .read(events: lines.count - 2, warnings: 0) : .failed(line: i + 1)
            #expect(Self.read(Self.join(missing)) == expected, "line \(i + 1) missing")
        }
    }

    @Test("two lines run together, or one split in two, are reported at their place", arguments: samples)
    func joinsAndSplits(name: String) throws {
        let lines = try Self.lines(name)
        for i in 1..<(lines.count - 1) {
            var joined = lines
            joined[i] += joined.remove(at: i + 1)
            #expect(Self.read(Self.join(joined)) == .failed(line: i + 1), "lines \(i + 1) and \(i + 2) joined")
            var split = lines
            let half = split[i].count / 2
            split.insert(Array(split[i][half...]), at: i + 1)
            split[i] = Array(split[i][..<half])
            #expect(Self.read(Self.join(split)) == .failed(line: i + 1), "line \(i + 1) split")
        }
    }
}
