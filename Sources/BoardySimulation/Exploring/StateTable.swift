import BoardyCore
import BoardyLock
import Foundation

/// The states explored in one subtree, each with the actions that were asleep when it was: a
/// state seen before with no more asleep is not explored again (sleep sets and state caching
/// combined soundly, as in Godefroid's thesis).
final class StateTable {
    private var seen: [Int: Set<String>] = [:]
    enum Visit { case new, seen, revisited }
    /// The most states kept (a few hundred bytes each): past it, new states are still explored
    /// but no longer remembered, so a long search's memory stays bounded.
    static let capacity = 400_000

    func visit(_ h: Int, asleep: Set<String>) -> Visit {
        guard let before = seen[h] else {
            if seen.count < Self.capacity { seen[h] = asleep }
            return .new
        }
        if before.isSubset(of: asleep) { return .seen }
        seen[h] = before.intersection(asleep)
        return .revisited
    }
}
