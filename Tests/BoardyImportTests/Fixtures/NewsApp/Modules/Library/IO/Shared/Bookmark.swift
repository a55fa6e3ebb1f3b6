//
//  Bookmark.swift
//  LibraryIO
//
//  Created by NewsApp on 2/14/24.
//
//

import FeedIO
import Foundation

public struct Bookmark: Codable, Equatable {
    public let article: ArticleInput
    public let savedAt: Date

    public init(article: ArticleInput, savedAt: Date = Date()) {
        self.article = article
        self.savedAt = savedAt
    }
}
