import Boardy
import BoardyTestSupport
import Foundation
import Testing

/// Every public symbol of Boardy 1.63.1's UIKit-free part is public here (issue 46): the symbol
/// graphs of our `Boardy` modules, extracted from this build with `swift symbolgraph-extract`,
/// against the list of Boardy's (`Fixtures/boardy-1.63.1-public-symbols.txt`, names only).
@Suite("Boardy's public symbols, all of them")
struct BoardyAPISymbolTests {
    /// Boardy's symbols whose path differs here only because of where a default implementation
    /// lives, each usable as in Boardy (BoardyAPISurfaceTests uses each):
    /// - `sendOutput(_:)` of the ComponentKit boards: `GuaranteedOutputSendingBoard`'s default,
    ///   which Board's own `sendOutput(_:)` shadows in the graph;
    /// - `ModernContinuableBoard`'s `ContinuableBoard` members: it conforms through
    ///   `ContinuousBoard` here (a second, explicit conformance would be redundant);
    /// - `blockActivation(_:with:)` on `Motherboard` and `NoBoard`: declared in ComponentKit on the
    ///   protocols (`MotherboardType`, `ActivatableBoard`), which the graph lists on the protocols
    ///   only; Boardy's `Motherboard` is itself a board.
    static let listedElsewhere: Set<String> = [
        "AdapterBoard.sendOutput(_:)", "BarrierBoard.sendOutput(_:)", "BlockTaskBoard.sendOutput(_:)", "FlowBoard.sendOutput(_:)",
        "ResultTaskBoard.sendOutput(_:)", "TaskBoard.sendOutput(_:)", "ModernContinuableBoard.continueBoard(_:)",
        "ModernContinuableBoard.continueBoard(model:)", "ModernContinuableBoard.continueInteractWithBoard(_:)",
        "ModernContinuableBoard.continueInteractWithBoard(command:)", "ModernContinuableBoard.motherboard",
        "Motherboard.blockActivation(_:with:)", "NoBoard.blockActivation(_:with:)",
    ]

    static func boardySymbols() throws -> [String] {
        let text = try String(contentsOf: repoRoot.appendingPathComponent("Tests/BoardyTests/Fixtures/boardy-1.63.1-public-symbols.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: " ", maxSplits: 1)[1]) }
    }

    /// The folder of this build's module interfaces (beside the test bundle).
    static func modulesFolder() -> URL? {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let m = dir.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: m.appendingPathComponent("BoardyCore.swiftmodule").path) { return m }
            dir = dir.deletingLastPathComponent()
        }
        let fallback = repoRoot.appendingPathComponent(".build/debug/Modules")
        return FileManager.default.fileExists(atPath: fallback.path) ? fallback : nil
    }

    static var target: String {
        #if os(Linux)
            #if arch(arm64)
                return "aarch64-unknown-linux-gnu"
            #else
                return "x86_64-unknown-linux-gnu"
            #endif
        #else
            #if arch(arm64)
                return "arm64-apple-macosx13.0"
            #else
                return "x86_64-apple-macosx13.0"
            #endif
        #endif
    }

    @Test("the symbol graphs of our Boardy modules hold every public symbol of Boardy 1.63.1 (UIKit-free)")
    func everySymbolIsPublicHere() throws {
        let modules = try #require(Self.modulesFolder(), "no Modules folder beside the test bundle or under .build/debug")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("boardy-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        for module in ["BoardyTrace", "BoardyCore", "BoardyComponentKit", "Boardy"] {
            let p = Process()
            dieWithParent(
                p, executable: "/usr/bin/env",
                arguments: [
                    "swift", "symbolgraph-extract", "-module-name", module, "-I", modules.path, "-target", Self.target,
                    "-minimum-access-level", "public", "-output-dir", out.path,
                ])
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "symbolgraph-extract \(module) exited \(p.terminationStatus)")
        }
        var ours = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: out.path) where file.hasSuffix(".symbols.json") {
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(file))) as? [String: Any])
            for s in (doc["symbols"] as? [[String: Any]]) ?? [] {
                if let path = s["pathComponents"] as? [String] { ours.insert(path.joined(separator: ".")) }
            }
        }
        let boardy = try Self.boardySymbols()
        #expect(boardy.count == 957)
        let missing = boardy.filter { !ours.contains($0) && !Self.listedElsewhere.contains($0) }
        #expect(missing == [], "Boardy's public symbols missing here")
        #expect(Self.listedElsewhere.isSubset(of: Set(boardy)), "an exception that is not one of Boardy's symbols")
    }
}
