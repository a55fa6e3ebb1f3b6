//
//  FeedModuleTests.swift
//  FeedTests
//
//  Created by NewsApp on 3/1/24.
//
//

import Boardy
@testable import Feed
import FeedIO
import XCTest

/// The pod's test spec: its boards are the tests', not the app's.
final class FeedModuleTests: XCTestCase {
    func testTheFeedEmbedsTheArticleList() {
        let producer = BoardProducer()
        producer.registerBoard("pub.test.Feed") { identifier in
            FeedBoard(identifier: identifier, builder: FeedBuilderMock(), producer: BoardProducer(externalProducer: producer, registrationsBuilder: { _ in
                BoardRegistration("pub.test.ArticleList") { identifier in
                    ArticleListBoard(identifier: identifier, builder: ArticleListBuilderMock())
                }
            }))
        }
        let mainboard = Motherboard(boardProducer: producer)

        mainboard.ioFeed("pub.test.Feed").activation.activate()

        XCTAssertNotNil(mainboard.installedBoard(identifier: "pub.test.Feed"))
    }

    func testTopicsServiceRegistersItsBoard() {
        let producer = BoardProducer()
        FeedModulePlugin(service: .topics("pub.test.Topics")).apply(for: MainComponentMock(producer: producer))

        XCTAssertNotNil(producer.produceBoard(identifier: "pub.test.Topics"))
    }
}

private struct MainComponentMock: MainComponent {
    let options: MainOptions = .default
    let producer: BoardDynamicProducer

    func sharedValue<Value: Decodable>(_: Value.Type) -> Value? { nil }
}
