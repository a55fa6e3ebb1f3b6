import Boardy
@testable import Shopping
import XCTest

final class CartTests: XCTestCase {
    func testCart() {
        let producer = BoardProducer()
        producer.registerBoard("pub.test.CartOnly") { CartBoard(identifier: $0, producer: producer) }
    }
}
