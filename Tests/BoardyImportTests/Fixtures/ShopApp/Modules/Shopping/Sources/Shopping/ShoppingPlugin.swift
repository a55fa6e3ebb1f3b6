import Boardy
import Foundation
import ShoppingIO

public struct ShoppingModulePlugin: ModulePlugin {
    public init() {}

    public var identifier: BoardID { .pubCatalog }

    public func apply(for main: MainComponent) {
        let producer = main.producer
        let registrations = ShoppingRegistrations.all(producer: producer)
        for registration in registrations {
            producer.registerBoard(registration.identifier, factory: registration.constructor)
        }
    }
}

enum ShoppingRegistrations {
    static func all(producer: ActivatableBoardProducer) -> [BoardRegistration] {
        [
            BoardRegistration(.pubCatalog) { identifier in
                CatalogBoard(identifier: identifier)
            },
            BoardRegistration(.pubProductDetail) { identifier in
                ProductDetailBoard(identifier: identifier)
            },
            BoardRegistration(.pubCart) { identifier in
                CartBoard(identifier: identifier, producer: producer)
            },
            BoardRegistration(.pubSearch) { identifier in
                SearchBoard(identifier: identifier)
            },
            BoardRegistration(.pubWishlist) { identifier in
                WishlistBoard(identifier: identifier)
            },
            BoardRegistration(.pubCheckout) { identifier in
                CheckoutBoardFactory.make(identifier: identifier, producer: producer)
            },
            BoardRegistration(.pubReviews) { identifier in
                ReviewsBoard(identifier: identifier)
            },
            BoardRegistration(.modRecommendations) { identifier in
                RecommendationsBoard(identifier: identifier)
            },
        ]
    }

    /// Nobody calls this: its board is not the app's.
    static func experimental() -> [BoardRegistration] {
        [BoardRegistration("mod.Shopping.Experimental") { identifier in SearchBoard(identifier: identifier) }]
    }
}
