//
//  CommentsInOut.swift
//  FeedIO
//
//  Created by NewsApp on 2/6/24.
//
//

import Foundation

/// The article whose comments are shown.
public typealias CommentsInput = String

/// The number of comments once the reader posted one.
public typealias CommentsOutput = Int

public enum CommentsCommand {}

public typealias CommentsParameter = CommentsInput
