import Boardy
@testable import ShopApp
import XCTest

/// A test target: not the app.
final class ShopAppTests: XCTestCase {
    func testRegistersATestBoard() {
        let producer = BoardProducer()
        producer.registerBoard(.pubTestOnly) { TestBoard(identifier: $0) }
        producer.registerBoard("pub.test.Other") { TestBoard(identifier: $0) }
    }
}
