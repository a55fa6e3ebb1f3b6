import Boardy
import Foundation

public extension BoardID {
    static let pubCatalog: BoardID = "pub.mod.Shopping.Catalog"
    static let pubProductDetail: BoardID = "pub.mod.Shopping.ProductDetail"
    static let pubCart: BoardID = "pub.mod.Shopping.Cart"
    static let pubSearch: BoardID = "pub.mod.Shopping.Search"
    static let pubWishlist: BoardID = "pub.mod.Shopping.Wishlist"
    static let pubCheckout: BoardID = "pub.mod.Shopping.Checkout"
    static let pubReviews: BoardID = "pub.mod.Shopping.Reviews"
}

public enum CatalogOutput {
    case product(String)
    case search
    case cart
}

public extension MotherboardType where Self: FlowManageable {
    func ioCatalog(_ identifier: BoardID = .pubCatalog) -> MainboardGenericDestination<Void, CatalogOutput, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioProductDetail(_ identifier: BoardID = .pubProductDetail) -> MainboardGenericDestination<String, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioCart(_ identifier: BoardID = .pubCart) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioSearch(_ identifier: BoardID = .pubSearch) -> MainboardGenericDestination<String, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioWishlist(_ identifier: BoardID = .pubWishlist) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioCheckout(_ identifier: BoardID = .pubCheckout) -> MainboardGenericDestination<Void, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioReviews(_ identifier: BoardID = .pubReviews) -> MainboardGenericDestination<String, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

public final class ShoppingServiceMap: ServiceMap {}

public extension ServiceMap {
    var modShopping: ShoppingServiceMap { link() }
}

public extension ShoppingServiceMap {
    var ioCatalog: MainboardGenericDestination<Void, CatalogOutput, Void, Void> { mainboard.ioCatalog() }
    var ioCart: MainboardGenericDestination<Void, Void, Void, Void> { mainboard.ioCart() }
    var ioWishlist: MainboardGenericDestination<Void, Void, Void, Void> { mainboard.ioWishlist() }
}
