import Boardy
import Foundation

extension BoardID {
    static let modShelf: BoardID = "mod.Kitchen.Shelf"
    static let modRestock: BoardID = "mod.Kitchen.Restock"
}

/// The ids the app lends the module.
public struct KitchenIDExtensions {
    public let checkout: BoardID

    public init(checkout: BoardID) {
        self.checkout = checkout
    }
}

public struct KitchenModulePlugin: ModulePlugin {
    public let identifier: BoardID
    public let identifierExtensions: KitchenIDExtensions

    public init(identifier: BoardID, identifierExtensions: KitchenIDExtensions) {
        self.identifier = identifier
        self.identifierExtensions = identifierExtensions
    }

    public func apply(for main: MainComponent) {
        let mainProducer = main.producer
        let externalIDs = identifierExtensions
        let mainboard = Motherboard(identifier: "Kitchen.root.main", externalProducer: mainProducer) { producer in
            BoardRegistration(.modShelf) { identifier in
                ShelfBoard(identifier: identifier, continuousBoard: Motherboard(externalProducer: producer), checkoutID: externalIDs.checkout)
            }
            BoardRegistration(.modRestock) { identifier in
                TaskBoard<Int, Int>(identifier: identifier) { _, count, completion in
                    completion(.success(count + 1))
                }
            }
        }
        mainProducer.registerBoard(identifier) { identifier in
            KitchenRootBoard(identifier: identifier, continuousBoard: mainboard)
        }
    }
}
