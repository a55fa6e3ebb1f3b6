//
//  FeedModulePlugin.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy
import FeedIO
import Foundation

public struct FeedModulePlugin: ModulePlugin {
    public let service: FeedModulePlugin.ServiceType

    public init(service: FeedModulePlugin.ServiceType) {
        self.service = service
    }

    public func apply(for main: MainComponent) {
        let mainProducer = main.producer

        switch service {
        case .default:
            mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
                FeedBoard(identifier: identifier, builder: FeedBuilder(), producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { producer in
                    BoardRegistration(.modArticleList) { identifier in
                        ArticleListBoard(identifier: identifier, builder: ArticleListBuilder())
                    }

                    BoardRegistration(.modFetchFeed) { identifier in
                        FetchFeedTaskBoardFactory.make(identifier: identifier)
                    }
                }))
            }
        case .reader:
            mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
                ReaderBoard(identifier: identifier, builder: ReaderBuilder(), producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { _ in
                    BoardRegistration(.modFetchArticle) { identifier in
                        FetchArticleTaskBoardFactory.make(identifier: identifier)
                    }
                }))
            }
        case .comments:
            mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
                CommentsBoard(identifier: identifier, builder: CommentsBuilder(), producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { _ in
                    BoardRegistration(.modPostComment) { identifier in
                        PostCommentTaskBoardFactory.make(identifier: identifier)
                    }
                }))
            }
        case .topics:
            mainProducer.registerBoard(identifier) { identifier in
                TopicsBoard(identifier: identifier, builder: TopicsBuilder())
            }
        }
    }

    public var identifier: BoardID {
        switch service {
        case let .default(identifier):
            return identifier
        case .reader(let identifier):
            return identifier
        case let .comments(identifier):
            return identifier
        case .topics(let identifier):
            return identifier
        }
    }

    /// Each service is equivalent to one entry point
    public enum ServiceType {
        case `default`(BoardID)
        case reader(BoardID)
        case comments(BoardID)
        case topics(BoardID)
    }
}

extension FeedModulePlugin {
    public static var bundledPlugins: [ModulePlugin] {
        return [
            FeedModulePlugin(service: .default(FeedID.default)),
            FeedModulePlugin(service: .reader(FeedID.reader)),
            FeedModulePlugin(service: .comments(FeedID.comments)),
            // Topics ships with the 2.0 redesign.
            // FeedModulePlugin(service: .topics(FeedID.topics)),
        ]
    }
}
