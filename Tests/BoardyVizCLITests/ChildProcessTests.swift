import BoardyTestSupport
import Foundation
import Testing

/// Issue 47: every child process a test starts dies with its parent, so a test run killed midway
/// leaves nothing running. `dieWithParent` (used by `runCLI` and every other test that starts a
/// process) sets the death signal; here the child's parent is killed.
@Suite("Child processes of tests")
struct ChildProcessTests {
    #if os(Linux)
        @Test("a child configured by dieWithParent is killed when its parent process is: a killed test run leaves nothing running")
        func childDiesWithItsParent() throws {
            let child = Process()
            dieWithParent(child, executable: "/bin/sleep", arguments: ["120"])
            let command = try #require(child.executableURL?.path)
            // A shell stands for the test process: it starts the child exactly as configured,
            // then is killed with SIGKILL, as a test run is.
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = [
                "-c", #"cmd="$1"; shift; "$cmd" "$@" > /dev/null & echo $!; wait"#, "sh", command,
            ] + (child.arguments ?? [])
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            var said = ""
            while !said.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
            }
            let pid = try #require(said.split(separator: "\n").first.flatMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }, "said \(said)")
            // Running (sleep, exec'd in place of setpriv: the same pid).
            let up = Date().addingTimeInterval(60)
            while Self.command(of: pid) != "sleep", Date() < up { usleep(10_000) }
            #expect(Self.command(of: pid) == "sleep")
            kill(shell.processIdentifier, SIGKILL)
            shell.waitUntilExit()
            // Gone (or a zombie for its new parent to reap) within a generous minute.
            let deadline = Date().addingTimeInterval(60)
            while Self.isAlive(pid), Date() < deadline { usleep(10_000) }
            #expect(!Self.isAlive(pid), "the child outlived its parent")
        }

        /// The process's command name, from /proc.
        static func command(of pid: pid_t) -> String? {
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Whether `pid` exists and is not a zombie.
        static func isAlive(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
        }
    #endif
}
