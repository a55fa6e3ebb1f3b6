import Foundation

/// The repository's root (the package folder).
public let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs the built `boardy-viz` in the repository's root and returns its exit code and outputs.
public func runCLI(_ args: [String]) throws -> (code: Int32, out: String, err: String) {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boardy-viz")
    let exe = FileManager.default.fileExists(atPath: bin.path) ? bin : repoRoot.appendingPathComponent(".build/debug/boardy-viz")
    let p = Process()
    p.executableURL = exe
    p.arguments = args
    p.currentDirectoryURL = repoRoot
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}
