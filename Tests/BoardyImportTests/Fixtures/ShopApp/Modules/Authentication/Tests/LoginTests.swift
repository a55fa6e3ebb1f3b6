import Boardy
@testable import Authentication
import XCTest

final class LoginTests: XCTestCase {
    func testLogin() {
        let producer = BoardProducer()
        producer.registerBoard("pub.test.AuthOnly") { LoginBoard(identifier: $0, producer: producer) }
    }
}
