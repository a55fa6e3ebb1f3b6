/// A place in the app's sources: a path relative to the folder imported, and a 1-based line.
public struct CodeLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file, relative to the imported folder.
    public var file: String
    /// The line (1-based).
    public var line: Int

    /// The column (1-based) where the call or registration starts; 1 when unknown. Not part of
    /// equality or order: one place is one line.
    public var column: Int = 1

    /// A location.
    public init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line`.
    public var description: String { "\(file):\(line)" }

    /// Same file and line.
    public static func == (a: CodeLocation, b: CodeLocation) -> Bool { a.file == b.file && a.line == b.line }

    /// Hashes file and line.
    public func hash(into h: inout Hasher) {
        h.combine(file)
        h.combine(line)
    }

    /// File order, then line order.
    public static func < (a: CodeLocation, b: CodeLocation) -> Bool { (a.file, a.line) < (b.file, b.line) }
}
