import ArgumentParser
import BoardyFiles
import BoardyGraphviz
import BoardyImport
import BoardyLock
import BoardySimulation
import BoardyTrace
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif


// The errors of docs/contract.md §4 that the commands raise about their files and flags.

/// An input that cannot be opened (exit 66).
struct NoInputError: CommandError {
    var message: String
    var report: String { message }
    var exitCode: ExitCode { Exit.noInput }
}

/// An output that cannot be created (exit 73).
struct CannotCreateError: CommandError {
    var message: String
    var report: String { message }
    var exitCode: ExitCode { Exit.cannotCreate }
}

/// Bad usage found after parsing (exit 64): a flag that contradicts an output's extension.
struct UsageError: CommandError {
    var message: String
    var report: String { message }
    var exitCode: ExitCode { Exit.usage }
}
