/// A weak box around a watched content object (Boardy's `ContentBox`).
struct WatchedContentBox {
    weak var content: AnyObject?
}

// Content watching (Boardy's `Board.watch(content:)` family): a board keeps weak references to
// the objects it shows (a view controller, a view) so it can tell whether any is still alive.
extension Board {
    /// Watches `content` (held weakly): ``watchedContentIsAvailable`` is true while one lives.
    public func watch(content: AnyObject) {
        watchedContents.append(WatchedContentBox(content: content))
    }

    /// Whether at least one watched content is still alive (false when nothing was watched).
    public var watchedContentIsAvailable: Bool {
        cleanWatchedContents()
        return !watchedContents.isEmpty
    }

    /// Forgets every watched content.
    public func resetWatchedContents() {
        watchedContents.removeAll()
    }

    /// The watched contents still alive, oldest first.
    public func availableWatchedContents() -> [AnyObject] {
        cleanWatchedContents()
        return watchedContents.compactMap(\.content)
    }

    /// The watched contents still alive that are `Object`s.
    public func availableWatchedContents<Object>(_: Object.Type = Object.self) -> [Object] {
        availableWatchedContents().compactMap { $0 as? Object }
    }

    /// The first watched content still alive that is an `Object`.
    public func firstAvailableWatchedContent<Object>(_ contentType: Object.Type = Object.self) -> Object? {
        availableWatchedContents(contentType).first
    }

    /// The last watched content still alive that is an `Object`.
    public func lastAvailableWatchedContent<Object>(_ contentType: Object.Type = Object.self) -> Object? {
        availableWatchedContents(contentType).last
    }

    private func cleanWatchedContents() {
        watchedContents.removeAll { $0.content == nil }
    }
}
