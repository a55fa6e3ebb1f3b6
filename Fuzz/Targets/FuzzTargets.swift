import BoardyDispatch
import BoardySimulation
import BoardyTrace

/// The bodies of the fuzz targets (`make fuzz`), also run over the checked-in corpus by the test
/// suite. Each takes arbitrary bytes and must return without crashing, hanging or leaking: bad
/// input is an error value, never a trap.
public enum FuzzTargets {
    /// The trace reader, strict and lenient, over any bytes; what it reads must write back and
    /// read again to the same events.
    public static func traceReader(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        for order in [TraceReader.OrderChecking.strict, .lenient] {
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
