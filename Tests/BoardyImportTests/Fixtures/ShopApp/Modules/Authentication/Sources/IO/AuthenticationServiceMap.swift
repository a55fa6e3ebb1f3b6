import Boardy
import Foundation

public final class AuthenticationServiceMap: ServiceMap {}

public extension ServiceMap {
    var modAuthentication: AuthenticationServiceMap { link() }
}

public extension AuthenticationServiceMap {
    var ioLogin: LoginMainDestination {
        mainboard.ioLogin()
    }

    var ioRegister: MainboardGenericDestination<Void, Bool, Void, Void> {
        mainboard.ioRegister()
    }
}
