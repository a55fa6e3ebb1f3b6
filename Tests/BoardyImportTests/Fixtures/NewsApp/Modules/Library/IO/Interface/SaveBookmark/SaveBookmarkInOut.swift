//
//  SaveBookmarkInOut.swift
//  LibraryIO
//
//  Created by NewsApp on 2/14/24.
//
//

import FeedIO
import Foundation

public typealias SaveBookmarkInput = ArticleInput

/// The saved bookmark.
public typealias SaveBookmarkOutput = Bookmark

public typealias SaveBookmarkParameter = SaveBookmarkInput
