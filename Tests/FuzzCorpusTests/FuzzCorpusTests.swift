import BoardyTestSupport
import Foundation
import FuzzTargets
import Testing

/// Every file in `Fuzz/corpus/<target>/` (seeds, and each crash `make fuzz` ever found) and every
/// sample, through the fuzz targets' bodies: the regressions of fuzzing run in `make test`.
@Suite("Fuzz corpus")
struct FuzzCorpusTests {
    static func files(_ folder: String) throws -> [URL] {
        let dir = repoRoot.appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: dir.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    static let targetNames = ["trace-reader", "scenario-loader", "barrier-settings", "ingest"]

    static func runAll(_ bytes: UnsafeRawBufferPointer) {
        FuzzTargets.traceReader(bytes)
        FuzzTargets.scenarioLoader(bytes)
        FuzzTargets.barrierSettings(bytes)
        FuzzTargets.ingest(bytes)
    }

    @Test("the checked-in corpus and the samples go through every target without a crash")
    func corpus() throws {
        var inputs = try Self.files("samples").filter { $0.pathExtension == "json" } + Self.files("samples/traces")
        for name in Self.targetNames { inputs += try Self.files("Fuzz/corpus/\(name)") }
        #expect(inputs.count >= 12)
        for url in inputs {
            let data = try Data(contentsOf: url)
            data.withUnsafeBytes { Self.runAll($0) }
        }
    }
}
