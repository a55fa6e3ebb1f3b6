import Boardy
import BoardyTestSupport
import Foundation
import Testing

/// The differential probes (Probes/BoardyProbes.swift) run on ours and print what the real Boardy
/// 1.63.1 printed for the same code (Fixtures/probes-boardy-1.63.1.txt, recorded on a Linux
/// build of Boardy's UIKit-free part; `| TRAP` where Boardy trapped).
@Suite("Differential probes: ours prints what Boardy printed")
struct BoardyProbeTests {
    /// What Boardy printed, by probe.
    static func expected() throws -> [String: [String]] {
        let text = try String(contentsOf: repoRoot.appendingPathComponent("Tests/BoardyTests/Fixtures/probes-boardy-1.63.1.txt"), encoding: .utf8)
        var out: [String: [String]] = [:]
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                current = String(line.dropFirst(3))
                out[current] = []
            } else if line.hasPrefix("  | ") {
                out[current, default: []].append(String(line.dropFirst(4)))
            } else if line == "  |" {
                out[current, default: []].append("")
            }
        }
        return out
    }

    @Test("every probe has Boardy's output recorded")
    func everyProbeIsRecorded() throws {
        let expected = try Self.expected()
        #expect(Set(expected.keys) == Set(BoardyProbes.all.map(\.0)))
        #expect(BoardyProbes.all.count >= 30)
    }

    /// Probes where ours differs from Boardy on purpose, and why.
    static let knownDifferences: [String: String] = [
        // Traces record a `.void` gate's input as null and every golden trace and replay rests on
        // it; a `Void` (or optional) gate accepts nil as Boardy's `()`.
        "activation-barrier-gate-fails": "a .void barrier activates its gate with nil here, with () on Boardy",
        // The gate gets the key itself here; Boardy hands it an AnyHashable in an optional.
        "unique-barrier-per-key": "a .unique barrier activates its gate with the key here, with Optional(AnyHashable(key)) on Boardy",
        // Boardy hands the gateway's activation its internal `GatewayInputModel` (destination and
        // option); here the option itself, which a gate typed by the option's type accepts.
        "gateway-guards-and-exempts": "a gateway's activation gets the option here, Boardy's internal GatewayInputModel there",
    ]

    @Test("each probe prints what Boardy printed", arguments: BoardyProbes.all.map(\.0))
    func probe(_ name: String) throws {
        let expected = try #require(try Self.expected()[name], "no recorded output for \(name)")
        let run = try #require(BoardyProbes.all.first { $0.0 == name }?.1)
        if let why = Self.knownDifferences[name] {
            withKnownIssue(Comment(rawValue: why)) { #expect(run() == expected) }
        } else {
            #expect(run() == expected)
        }
    }
}
