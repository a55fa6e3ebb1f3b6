import Boardy
import Foundation
import Testing

/// Mirrors of Boardy's CodableBoardTests (1.63.1): a board whose input is Decodable takes it as
/// JSON `Data` (what `sendEncodedOutput` sends) or as a JSON object.
@Suite("Mirrors of Boardy's CodableBoardTests")
struct BoardyCodableMirrorTests {
    struct TestData: Codable, Equatable {
        let strValue: String
        let intValue: Int
    }

    final class Coding: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = TestData
        typealias OutputType = TestData
        func activate(withGuaranteedInput input: TestData) { sendEncodedOutput(input) }
    }

    final class Sink {}

    @Test("CodableBoardTests.testCodableData")
    func codableData() throws {
        let sender = Coding(identifier: "sender")
        let mainboard = Motherboard(boards: [sender, Coding(identifier: "receiver")])
        mainboard.registerFlowSteps("sender" ->> "receiver")
        var data: Data?
        let sink = Sink()
        mainboard.registerGuaranteedFlow(matchedIdentifiers: "receiver", target: sink) { (_, output: Data) in data = output }
        sender.activate(withGuaranteedInput: TestData(strValue: "String", intValue: 100))
        let received = try #require(data)
        #expect(try JSONDecoder().decode(TestData.self, from: received) == TestData(strValue: "String", intValue: 100))
        withExtendedLifetime(sink) {}
    }

    @Test("CodableBoardTests.testDictionaryData")
    func dictionaryData() throws {
        let mainboard = Motherboard(boards: [Coding(identifier: "receiver")])
        var data: Data?
        let sink = Sink()
        mainboard.registerGuaranteedFlow(matchedIdentifiers: "receiver", target: sink) { (_, output: Data) in data = output }
        mainboard.activateBoard(identifier: "receiver", withOption: ["strValue": "String", "intValue": 100] as [String: Any])
        let received = try #require(data)
        #expect(try JSONDecoder().decode(TestData.self, from: received) == TestData(strValue: "String", intValue: 100))
        withExtendedLifetime(sink) {}
    }
}
