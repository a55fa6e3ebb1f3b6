//
//  FeedID.swift
//  FeedIO
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy

public enum FeedID {
    /// The home feed
    public static let `default`: BoardID = .pubFeed

    /// Read one article
    public static let reader: BoardID = .pubReader

    /// The comments of an article
    public static let comments: BoardID = .pubComments

    /// Browse by topic (ships with the 2.0 redesign)
    public static let topics: BoardID = .pubTopics
}
