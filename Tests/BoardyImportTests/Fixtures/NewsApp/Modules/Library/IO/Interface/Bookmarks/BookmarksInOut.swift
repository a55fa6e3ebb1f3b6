//
//  BookmarksInOut.swift
//  LibraryIO
//
//  Created by NewsApp on 2/14/24.
//
//

import Foundation

public typealias BookmarksInput = Any?

public typealias BookmarksOutput = Void

public enum BookmarksCommand {
    case reload
}

public typealias BookmarksParameter = BookmarksInput
