import Boardy
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let container = Container()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        Composition.register(in: container)
        let rootBoard: RootBoard = container.resolve()
        rootBoard.activate(withGuaranteedInput: ())
        return true
    }
}
