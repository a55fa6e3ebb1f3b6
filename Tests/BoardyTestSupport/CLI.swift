import Foundation

/// The repository's root (the package folder).
public let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Sets `p` to run `executable` with `arguments` so that it dies with the thread that starts it
/// (issue 47: a test run killed midway must leave no child running). On Linux it goes through
/// util-linux's `setpriv --pdeathsig KILL`, which sets `PR_SET_PDEATHSIG` and then execs the
/// executable in the same process (so `processIdentifier` is the executable's, for signals).
/// Without `setpriv` (other systems), the executable is run directly.
public func dieWithParent(_ p: Process, executable: String, arguments: [String]) {
    let setpriv = "/usr/bin/setpriv"
    if FileManager.default.isExecutableFile(atPath: setpriv) {
        p.executableURL = URL(fileURLWithPath: setpriv)
        p.arguments = ["--pdeathsig", "KILL", "--", executable] + arguments
    } else {
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
    }
}

/// Runs the built `boardy-viz` in the repository's root and returns its exit code and outputs.
/// `stdin`, when given, is written to its standard input; `directory` is where it runs.
///
/// `stdinFile` gives the child that file (a folder, a device) as its standard input instead.
/// A child still running after `timeout` seconds is killed (a hang fails its test, with exit code
/// 137, instead of hanging the suite).
public func runCLI(
    _ args: [String], environment: [String: String] = [:], stdin: Data? = nil, stdinFile: FileHandle? = nil, directory: URL? = nil,
    timeout: TimeInterval = 600
) throws -> (
    code: Int32, out: String, err: String
) {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boardy-viz")
    let exe = FileManager.default.fileExists(atPath: bin.path) ? bin : repoRoot.appendingPathComponent(".build/debug/boardy-viz")
    let p = Process()
    dieWithParent(p, executable: exe.path, arguments: args)
    p.currentDirectoryURL = directory ?? repoRoot
    let input = Pipe()
    if let stdinFile { p.standardInput = stdinFile } else if stdin != nil { p.standardInput = input } else { p.standardInput = FileHandle.nullDevice }
    if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let pid = p.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    if let stdin {
        // A child that exits without reading (bad usage) closes the pipe: the write must fail
        // quietly, not raise SIGPIPE in the test process.
        signal(SIGPIPE, SIG_IGN)
        DispatchQueue.global().async {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
    }
    // Both pipes drain at once: a child that fills one while we wait on the other would block
    // for ever (seen with a sanitizer's report on stderr).
    let e = PipeData()
    let done = DispatchGroup()
    done.enter()
    DispatchQueue.global().async {
        e.data = err.fileHandleForReading.readDataToEndOfFile()
        done.leave()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    p.waitUntilExit()
    let code = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
    return (code, String(decoding: o, as: UTF8.self), String(decoding: e.data, as: UTF8.self))
}

/// What one pipe gave, written by its reader before the group it leaves is waited on.
private final class PipeData: @unchecked Sendable {
    var data = Data()
}

/// A generated scenario, as JSON text: a chain `b0 ->> b1 ->> …` of `boards` boards, each sending
/// one output, whose head the script activates `starts` times (4 events per activation).
public func chainScenarioJSON(boards: Int, starts: Int) -> String {
    let defs = (0..<boards).map { "{\"id\":\"b\($0)\",\"onActivate\":[{\"output\":\"next\"}]}" }
    let chain = (0..<boards).map { "b\($0)" }.joined(separator: " ->> ")
    let script = (0..<starts).map { "{\"at\":\($0),\"activate\":\"b0\"}" }
    return "{\"scenario\":\"chain\",\"boards\":[\(defs.joined(separator: ","))],\"flows\":[\"\(chain)\"],\"script\":[\(script.joined(separator: ","))]}"
}
