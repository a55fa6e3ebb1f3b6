import Boardy
import Foundation

public extension MotherboardType where Self: FlowManageable {
    func ioKitchen(_ identifier: BoardID) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}
