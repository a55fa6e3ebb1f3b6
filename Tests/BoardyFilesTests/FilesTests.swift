import BoardyFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening what users hand us by what it is: every kind of path, read or refused without
/// blocking, and UTF-8 positions checked against the standard library's decoder.
@Suite("Files")
struct FilesTests {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("boardy-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("FileKind names every kind of path, following links, and a dangling link apart from a missing file")
    func kinds() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.txt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let fifo = dir.appendingPathComponent("p").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let link = dir.appendingPathComponent("to-dir").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.path)
        let dangling = dir.appendingPathComponent("dangling").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.appendingPathComponent("none").path)
        #expect(FileKind.of(file) == .regular)
        #expect(FileKind.of(dir.path) == .directory)
        #expect(FileKind.of(link) == .directory)
        #expect(FileKind.of(fifo) == .fifo)
        #expect(FileKind.of("/dev/null") == .device)
        #expect(FileKind.of(dangling) == .brokenLink)
        #expect(FileKind.of(dir.appendingPathComponent("missing").path) == .missing)
        #expect(FileKind.reasonSkipped(fifo) == "it is a named pipe, not a file")
        #expect(FileKind.reasonSkipped(dir.appendingPathComponent("bad\u{FFFD}name").path).contains("not UTF-8"))
    }

    @Test("readRegularFile and readRegularPrefix read files and refuse a pipe with no writer, a folder and a device without blocking")
    func regularOnly() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try InputFiles.readRegularFile(file).get() == Array("hello".utf8))
        #expect(try InputFiles.readRegularPrefix(file, count: 3).get() == Array("hel".utf8))
        #expect(try InputFiles.readRegularPrefix(file, count: 99).get() == Array("hello".utf8))
        let fifo = dir.appendingPathComponent("p").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // A blocking open of this pipe would never return: the test would hang, not fail.
        for path in [fifo, dir.path, "/dev/zero"] {
            for result in [InputFiles.readRegularFile(path), InputFiles.readRegularPrefix(path, count: 4)] {
                guard case let .failure(error) = result, case .notRegular = error.reason else {
                    Issue.record("\(path) was read: \(result)")
                    continue
                }
                #expect(error.description.hasPrefix(path + " is "))
            }
        }
        guard case let .failure(missing) = InputFiles.readRegularFile(dir.appendingPathComponent("none").path), case .system = missing.reason else {
            Issue.record("a missing file was read")
            return
        }
    }

    @Test("readNamedInput streams a device, stops at the limit and at the first NUL with its line and column")
    func namedInputs() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("t.json").path
        try Data("ab\ncd\u{0}ef".utf8).write(to: URL(fileURLWithPath: text))
        guard case let .failure(nul) = InputFiles.readNamedInput(text, rejectingNUL: true), case let .nulByte(offset, line, column) = nul.reason else {
            Issue.record("the NUL byte was not reported")
            return
        }
        #expect(offset == 5 && line == 2 && column == 3)
        #expect(nul.description == "\(text):2:3: byte 0x0 (NUL): it is binary, not text")
        // /dev/zero: the first byte is NUL, at once, not a gigabyte later.
        guard case let .failure(zero) = InputFiles.readNamedInput("/dev/zero", rejectingNUL: true), case .nulByte(0, 1, 1) = zero.reason else {
            Issue.record("/dev/zero was not stopped at its first byte")
            return
        }
        guard case let .failure(big) = InputFiles.readNamedInput(text, limit: 4), case .tooLarge(limit: 4) = big.reason else {
            Issue.record("the limit was not kept")
            return
        }
        #expect(try InputFiles.readNamedInput(text).get().count == 8)
        guard case let .failure(folder) = InputFiles.readNamedInput(dir.path), case .notRegular(.directory) = folder.reason else {
            Issue.record("a folder was read")
            return
        }
    }

    @Test("FileIdentity is the same through a symlink and a hard link, and differs for another file")
    func identity() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a").path, b = dir.appendingPathComponent("b").path
        try Data("a".utf8).write(to: URL(fileURLWithPath: a))
        try Data("b".utf8).write(to: URL(fileURLWithPath: b))
        let soft = dir.appendingPathComponent("soft").path, hard = dir.appendingPathComponent("hard").path
        try FileManager.default.createSymbolicLink(atPath: soft, withDestinationPath: a)
        try FileManager.default.linkItem(atPath: a, toPath: hard)
        let id = try #require(FileIdentity(path: a))
        #expect(FileIdentity(path: soft) == id && FileIdentity(path: hard) == id)
        #expect(FileIdentity(path: b) != id)
        #expect(FileIdentity(path: dir.appendingPathComponent("none").path) == nil)
    }

    /// The standard library's verdict: decoding repairs ill-formed UTF-8 (with U+FFFD), so the
    /// bytes are UTF-8 exactly when they survive a round trip.
    static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool { Array(String(decoding: bytes, as: UTF8.self).utf8) == Array(bytes) }

    @Test("UTF8Position.firstInvalid agrees with the standard library's decoder on random bytes")
    func utf8AgreesWithTheStandardLibrary() {
        var g = SystemRandomNumberGenerator()
        // Bytes biased to the interesting ranges: ASCII, continuation bytes, lead bytes.
        let pool: [UInt8] = Array(0x20...0x7E) + Array(0x80...0xBF) + Array(0xC0...0xFF)
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &g)).map { _ in pool.randomElement(using: &g)! }
            let valid = Self.isUTF8(bytes[...])
            let first = UTF8Position.firstInvalid(bytes[...])
            #expect((first == nil) == valid, "\(bytes)")
            if let first {
                // Everything before it is UTF-8.
                #expect(Self.isUTF8(bytes[..<first]), "\(bytes) at \(first)")
            }
        }
        #expect(UTF8Position.lineAndColumn(of: 5, in: Array("ab\ncdef".utf8)[...]) == (2, 3))
    }
}
