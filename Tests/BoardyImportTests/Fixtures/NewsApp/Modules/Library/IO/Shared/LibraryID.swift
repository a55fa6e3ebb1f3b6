//
//  LibraryID.swift
//  LibraryIO
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy

public enum LibraryID {
    /// The saved articles
    public static let `default`: BoardID = .pubBookmarks

    /// Save one article
    public static let saveBookmark: BoardID = .pubSaveBookmark
}
