//
//  Article.swift
//  FeedIO
//
//  Created by NewsApp on 2/5/24.
//
//

import Foundation

public struct ArticleInput: Codable, Equatable {
    public let articleID: String
    public let title: String
    public let isPremium: Bool

    public init(articleID: String, title: String, isPremium: Bool = false) {
        self.articleID = articleID
        self.title = title
        self.isPremium = isPremium
    }
}

public struct ArticleSummary: Codable, Equatable {
    public let article: ArticleInput
    public let section: String
    public let publishedAt: Date
    public let imageURL: URL?
}
