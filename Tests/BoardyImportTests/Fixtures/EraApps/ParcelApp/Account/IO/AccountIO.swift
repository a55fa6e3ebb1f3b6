import Boardy
import Foundation

public extension BoardID {
    static let pubAccount: BoardID = "pub.mod.Account"
}

public extension MotherboardType where Self: FlowManageable {
    func ioAccount(_ identifier: BoardID = .pubAccount) -> MainboardGenericDestination<Any?, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}
