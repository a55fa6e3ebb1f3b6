import BoardyDispatch
import BoardySimulation
import BoardyTrace

/// The bodies of the fuzz targets (`make fuzz`), also run over the checked-in corpus by the test
/// suite. Each takes arbitrary bytes and must return without crashing, hanging or leaking: bad
/// input is an error value, never a trap.
public enum FuzzTargets {
    /// The trace reader, strict and lenient, over any bytes; what it reads must write back and
    /// read again to the same events. The fast path (``TraceTable``) must reach the same
    /// verdict: the same error at the same place, or the same events and warnings.
    public static func traceReader(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        for order in [TraceReader.OrderChecking.strict, .lenient] {
            if let difference = TraceTable.differenceFromReader(input, order: order) {
                preconditionFailure("the fast path and the reader differ: \(difference)")
            }
            guard var reader = try? TraceReader(bytes: input, name: "fuzz") else { continue }
            reader.order = order
            guard let trace = try? reader.readAll() else { continue }
            // Round trip: what was read is written back and read again, the same.
            let again = try? Trace.read(text: trace.jsonl, name: "again", order: order)
            precondition(again?.events == trace.events, "a trace read back differs from what was written")
        }
    }

    /// The scenario loader, as JSON and as YAML; what loads also checks statically.
    public static func scenarioLoader(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let s = try? ScenarioLoader.load(json: text, file: "fuzz.json") { _ = StaticCheck.check(s) }
        if let s = try? ScenarioLoader.load(yaml: text, file: "fuzz.yaml") { _ = StaticCheck.check(s) }
    }

    /// The views over any bytes read as a trace (leniently): stats, the observed graph, the
    /// timeline and the Chrome export must all take whatever the reader accepts.
    public static func views(_ bytes: UnsafeRawBufferPointer) {
        guard var reader = try? TraceReader(bytes: Array(bytes), name: "fuzz") else { return }
        reader.order = .lenient
        guard let trace = try? reader.readAll() else { return }
        do {
            try Pipeline.views(trace)
        } catch {
            preconditionFailure("a view failed on a trace the reader accepted: \(error)")
        }
    }

    /// The whole pipeline: the first bytes decode to a valid scenario (``ScenarioGenome``) that
    /// must go through every step; the last eight choose a mutation of it and of its trace, which
    /// must be handled or refused with a location.
    public static func pipeline(_ bytes: UnsafeRawBufferPointer) {
        var genome = ScenarioGenome(Array(bytes))
        let text = genome.scenarioJSON()
        let seed = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        do {
            let jsonl = try Pipeline.run(scenarioJSON: text)
            try Pipeline.checkMutatedScenario(Pipeline.mutate(text, seed: seed))
            try Pipeline.checkMutatedTrace(Pipeline.mutate(jsonl, seed: seed))
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Tealium's barrier settings: any JSON document, leniently.
    public static func barrierSettings(_ bytes: UnsafeRawBufferPointer) {
        guard let value = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        _ = BarrierSettings.parse(value)
    }
}

import Foundation

extension FuzzTargets {
    /// Without libFuzzer (a normal build): runs each file given, or each file in each folder
    /// given, through `target` once, to reproduce a crash under a debugger.
    public static func runCorpus(_ arguments: [String], through target: (UnsafeRawBufferPointer) -> Void) throws {
        for path in arguments {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            let files = isDir.boolValue ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 } : [path]
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                data.withUnsafeBytes { target($0) }
                print("ok \(file)")
            }
        }
    }
}
