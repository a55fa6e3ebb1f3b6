import Boardy
import Foundation

/// The services Tracking offers, as every module's map names them: `default` first.
public extension TrackingServiceMap {
    var `default`: MainboardGenericDestination<String?, TrackingOutput, Void, Void> {
        mainboard.ioTracking()
    }

    var history: MainboardGenericDestination<Void, Void, Void, Void> {
        mainboard.ioTrackingHistory()
    }
}

public final class TrackingServiceMap: ServiceMap {}

public extension ServiceMap {
    var tracking: TrackingServiceMap { link() }
}
