import Boardy
import UIKit

/// A small injection container: makers by type.
final class Container {
    private var makers: [ObjectIdentifier: () -> Any] = [:]

    func register<T>(_ maker: @escaping () -> T) {
        makers[ObjectIdentifier(T.self)] = maker
    }

    func resolve<T>() -> T {
        makers[ObjectIdentifier(T.self)]!() as! T
    }
}

final class AppMotherboard: Motherboard {
    init(boards: [ActivatableBoard]) {
        super.init(boards: boards)
    }
}

enum Composition {
    static func register(in container: Container) {
        container.register { WelcomeBoard() }
        container.register { SignInBoard() }
        container.register { () -> AppMotherboard in
            let welcome: WelcomeBoard = container.resolve()
            let signIn: SignInBoard = container.resolve()
            let mainboard = AppMotherboard(boards: [welcome, signIn])
            return mainboard.extended(boards: [EntriesBoard(), BannerBoard()])
        }
        container.register { () -> RootBoard in
            RootBoard(mainboard: container.resolve())
        }
    }
}
