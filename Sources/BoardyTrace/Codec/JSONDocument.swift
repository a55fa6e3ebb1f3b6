/// A parsed JSON text that remembers where each value came from, so later checks can point at
/// the line and column of a problem (`boards[2].kind`).
public struct JSONDocument: Sendable {
    /// The parsed value.
    public let value: JSONValue
    /// How deep a document's values may nest: lower than a trace line's limit (512), so every
    /// value a scenario holds can be recorded in an event (which adds a few levels) and read back.
    public static let maxDepth = 500
    /// Where each value and member name starts, by the hash of its path (``PathHash``), as
    /// `line << 32 | column`: compact, for documents of millions of values.
    private let values: [UInt64: UInt64]
    private let keys: [UInt64: UInt64]

    /// A 1-based line and column.
    public struct Position: Sendable, Hashable {
        /// The line.
        public var line: Int
        /// The column.
        public var column: Int
        /// A position.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// Parses `text`; a syntax error carries its line and column.
    public init(parsing text: String) throws(JSONDocumentError) {
        var text = text
        let starts = Self.lineStarts(of: text)
        let result: Result<(JSONValue, LocationRecorder), JSONParser.Failure> = text.withUTF8 { buf in
            var p = JSONParser(buf)
            p.depthLimit = JSONParser.documentMaxDepth
            let recorder = LocationRecorder(lineStarts: starts)
            p.locations = recorder
            do throws(JSONParser.Failure) {
                let v = try p.parseValue()
                p.skipWhitespace()
                guard p.atEnd else { throw p.fail("unexpected text after the value") }
                return .success((v, recorder))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success((v, recorder)):
            value = v
            values = recorder.values
            keys = recorder.keys
        case let .failure(f):
            let (line, column) = Self.lineAndColumn(of: f.offset, lineStarts: starts)
            throw JSONDocumentError(line: line, column: column, message: f.message)
        }
    }

    /// A document for a value parsed elsewhere (YAML), with the positions of its values and
    /// member names by path.
    public init(value: JSONValue, values: [String: Position] = [:], keys: [String: Position] = [:]) {
        self.value = value
        self.values = Dictionary(values.map { (PathHash.of($0.key), Self.packed($0.value)) }, uniquingKeysWith: { a, _ in a })
        self.keys = Dictionary(keys.map { (PathHash.of($0.key), Self.packed($0.value)) }, uniquingKeysWith: { a, _ in a })
    }

    /// Where each value was written, without the values themselves (null) or the places of
    /// member names (which only a problem found while reading needs): for keeping after the
    /// values have been read into something else.
    public var positions: JSONDocument { JSONDocument(value: .null, packedValues: values, packedKeys: [:]) }

    private init(value: JSONValue, packedValues: [UInt64: UInt64], packedKeys: [UInt64: UInt64]) {
        self.value = value
        values = packedValues
        keys = packedKeys
    }

    /// The 1-based line and column where the value at `path` starts, if known.
    public func location(of path: String) -> (line: Int, column: Int)? {
        values[PathHash.of(path)].map(Self.unpacked)
    }

    /// The 1-based line and column of the member name at `path` (`boards[0].kindd`), if known.
    public func keyLocation(of path: String) -> (line: Int, column: Int)? {
        keys[PathHash.of(path)].map(Self.unpacked)
    }

    private static func packed(_ p: Position) -> UInt64 {
        UInt64(clamping: p.line) << 32 | UInt64(clamping: min(p.column, Int(UInt32.max)))
    }

    private static func unpacked(_ v: UInt64) -> (line: Int, column: Int) { (Int(v >> 32), Int(v & 0xFFFF_FFFF)) }

    static func lineStarts(of text: String) -> [Int] {
        var starts = [0]
        for (i, b) in text.utf8.enumerated() where b == 0x0A { starts.append(i + 1) }
        return starts
    }

    static func position(of offset: Int, lineStarts: [Int]) -> Position {
        let (l, c) = lineAndColumn(of: offset, lineStarts: lineStarts)
        return Position(line: l, column: c)
    }

    static func lineAndColumn(of offset: Int, lineStarts: [Int]) -> (Int, Int) {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return (lo + 1, offset - lineStarts[lo] + 1)
    }
}

/// A JSON syntax error at a line and column.
public struct JSONDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column (in bytes).
    public var column: Int
    /// What was wrong.
    public var message: String
    public var description: String { "\(line):\(column): \(message)" }
}
