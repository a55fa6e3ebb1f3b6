/// A small app in the style the importer reads (Boardy 1.63's): board A activates board B through
/// an IO helper, both registered in one producer. Shared by the import and hostile-input tests.
public let twoBoardAppSource = """
import Boardy
extension BoardID { static let pubA: BoardID = "pub.A"; static let pubB: BoardID = "pub.B" }
final class ABoard: Board, GuaranteedBoard {
    func activate(withGuaranteedInput input: Void) { motherboard.ioB().activation.activate() }
}
extension MotherboardType where Self: FlowManageable {
    func ioB(_ identifier: BoardID = .pubB) -> MainboardGenericDestination<Void, Void, Void, Void> { .init(destinationID: identifier, mainboard: self) }
}
enum Registrations {
    static func all() -> [BoardRegistration] {
        [BoardRegistration(.pubA) { ABoard(identifier: $0) }, BoardRegistration(.pubB) { NoBoard(identifier: $0) }]
    }
}
let registrations = Registrations.all()
"""
