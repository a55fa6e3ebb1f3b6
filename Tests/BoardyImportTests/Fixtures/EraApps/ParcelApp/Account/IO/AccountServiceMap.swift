import Boardy
import Foundation

public extension AccountServiceMap {
    var `default`: MainboardGenericDestination<Any?, Void, Void, Void> {
        mainboard.ioAccount()
    }
}

public final class AccountServiceMap: ServiceMap {}

public extension ServiceMap {
    var account: AccountServiceMap { link() }
}
