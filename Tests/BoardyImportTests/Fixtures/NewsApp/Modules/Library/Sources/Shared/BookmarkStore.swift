//
//  BookmarkStore.swift
//  Library
//
//  Created by NewsApp on 2/14/24.
//
//

import Foundation
import LibraryIO

final class BookmarkStore {
    static let shared = BookmarkStore(defaults: .standard)

    private let defaults: UserDefaults
    private let key = "library.bookmarks"

    init(defaults: UserDefaults) {
        self.defaults = defaults
    }

    var episodeIDs: [String] {
        defaults.stringArray(forKey: "library.episodes") ?? []
    }

    func all() -> [Bookmark] {
        guard let data = defaults.data(forKey: key) else { return [] }
        return (try? JSONDecoder().decode([Bookmark].self, from: data)) ?? []
    }

    func add(_ bookmark: Bookmark) {
        save(all().filter { $0.article.articleID != bookmark.article.articleID } + [bookmark])
    }

    func remove(articleID: String) {
        save(all().filter { $0.article.articleID != articleID })
    }

    private func save(_ bookmarks: [Bookmark]) {
        defaults.set(try? JSONEncoder().encode(bookmarks), forKey: key)
    }
}
