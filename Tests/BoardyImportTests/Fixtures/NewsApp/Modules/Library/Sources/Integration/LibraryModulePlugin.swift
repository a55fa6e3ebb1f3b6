//
//  LibraryModulePlugin.swift
//  Library
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy
import Foundation
import LibraryIO

public struct LibraryModulePlugin: ModulePlugin {
    public let service: LibraryModulePlugin.ServiceType

    public init(service: LibraryModulePlugin.ServiceType) {
        self.service = service
    }

    public func apply(for main: MainComponent) {
        let mainProducer = main.producer

        switch service {
        case .default:
            mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
                BookmarksBoard(identifier: identifier, builder: BookmarksBuilder(), producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { _ in
                    BoardRegistration(.modLoadBookmarks) { identifier in
                        LoadBookmarksTaskBoardFactory.make(identifier: identifier)
                    }

                    BoardRegistration(.modRemoveBookmark) { identifier in
                        RemoveBookmarkTaskBoardFactory.make(identifier: identifier)
                    }
                }))
            }
        case .saveBookmark:
            mainProducer.registerBoard(identifier) { identifier in
                SaveBookmarkTaskBoardFactory.make(identifier: identifier)
            }
        }
    }

    public var identifier: BoardID {
        switch service {
        case let .default(identifier):
            return identifier
        case .saveBookmark(let identifier):
            return identifier
        }
    }

    /// Each service is equivalent to one entry point
    public enum ServiceType {
        case `default`(BoardID)
        case saveBookmark(BoardID)
    }
}

extension LibraryModulePlugin {
    public static var bundledPlugins: [ModulePlugin] {
        return [
            LibraryModulePlugin(service: .default(LibraryID.default)),
            LibraryModulePlugin(service: .saveBookmark(LibraryID.saveBookmark)),
        ]
    }
}
