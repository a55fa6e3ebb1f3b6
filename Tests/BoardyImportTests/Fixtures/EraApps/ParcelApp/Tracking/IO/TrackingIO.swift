import Boardy
import Foundation

public extension BoardID {
    static let pubTracking: BoardID = "pub.mod.Tracking"
    static let pubTrackingHistory: BoardID = "pub.mod.Tracking.History"
}

public enum TrackingOutput {
    case delivered(String)
}

public extension MotherboardType where Self: FlowManageable {
    func ioTracking(_ identifier: BoardID = .pubTracking) -> MainboardGenericDestination<String?, TrackingOutput, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioTrackingHistory(_ identifier: BoardID = .pubTrackingHistory) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}
