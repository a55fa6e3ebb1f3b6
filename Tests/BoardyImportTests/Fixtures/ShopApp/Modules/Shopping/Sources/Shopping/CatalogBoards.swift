import Boardy
import Foundation
import ShoppingIO

extension BoardID {
    static let modRecommendations: BoardID = "mod.Shopping.Recommendations"
    static let modFilters: BoardID = "mod.Shopping.Filters"
}

extension MotherboardType where Self: FlowManageable {
    func ioRecommendations(_ identifier: BoardID = .modRecommendations) -> MainboardGenericDestination<String, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioFilters(_ identifier: BoardID = .modFilters) -> MainboardGenericDestination<Void, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

final class CatalogBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = CatalogOutput

    init(identifier: BoardID) {
        super.init(identifier: identifier)
        motherboard.ioSearch().flow.addTarget(self) { target, query in
            target.motherboard.ioProductDetail().activation.activate(with: query)
        }
    }

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioRecommendations().activation.activate(with: "home")
    }

    func didSelect(_ output: CatalogOutput) {
        sendOutput(output)
        switch output {
        case .search: motherboard.ioSearch().activation.activate(with: "")
        case .cart: motherboard.serviceMap.modShopping.ioCart.activation.activate()
        case .product: break
        }
    }
}

final class ProductDetailBoard: Board, GuaranteedBoard {
    typealias InputType = String

    func activate(withGuaranteedInput input: String) {
        motherboard.ioReviews().activation.activate(with: input)
    }

    func didTapWish() {
        motherboard.ioWishlist().activation.activate()
    }
}

final class SearchBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = String
    typealias OutputType = String

    func activate(withGuaranteedInput input: String) {
        motherboard.ioFilters().activation.activate()
    }
}

final class WishlistBoard: Board, GuaranteedBoard {
    typealias InputType = Void
    func activate(withGuaranteedInput input: Void) {}
}

final class ReviewsBoard: Board, GuaranteedBoard {
    typealias InputType = String
    func activate(withGuaranteedInput input: String) {}
}

final class RecommendationsBoard: Board, GuaranteedBoard {
    typealias InputType = String
    func activate(withGuaranteedInput input: String) {}
}

final class FiltersBoard: Board, GuaranteedBoard {
    typealias InputType = Void
    func activate(withGuaranteedInput input: Void) {}
}
