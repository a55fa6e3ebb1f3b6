import BoardyCore

/// A scenario file is malformed: where (file, line, column, JSON path) and what was expected.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?
    /// The JSON path (`boards[2].kind`), when the problem is a value.
    public var path: String?
    /// What was wrong, and what was expected.
    public var message: String

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let column { s += ":\(column)" }
        if let path, !path.isEmpty { s += ": \(path)" }
        return "\(s): \(message)"
    }
}

/// The closest of `candidates` to `word`, if close enough to suggest ("did you mean").
public func closest(to word: String, in candidates: [String]) -> String? {
    // Very short words are too easy to match by accident.
    guard word.count >= 3 else { return nil }
    var best: (String, Int)?
    for c in candidates where c != word {
        let d = editDistance(word.lowercased(), c.lowercased())
        let limit = c.count <= 3 ? 1 : min(3, max(2, c.count / 3))
        if d <= limit, best == nil || d < best!.1 { best = (c, d) }
    }
    return best?.0
}

/// Levenshtein distance, iteratively.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}

/// " (did you mean "x"?)" or "".
func didYouMean(_ word: String, _ candidates: [String]) -> String {
    closest(to: word, in: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
}
