import Foundation

// Records the checkout sample on the virtual clock, writes it to OUT/checkout-swift.jsonl and
// prints it. (The scenario simulator and renderer replace this demo as they land.)
let outDir = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "out"
let trace = CheckoutSample.record()
let path = URL(fileURLWithPath: outDir).appendingPathComponent("checkout-swift.jsonl")
do {
    try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
    try trace.write(to: path, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("boardy-demo: cannot write \(path.path): \(error)\n".utf8))
    exit(73)
}
print(trace, terminator: "")
print("\ntrace written to \(path.path) (\(trace.split(separator: "\n").count - 1) events)")
