import Boardy
import Foundation

extension BoardID {
    static let root = "gb.root"
    static let welcome = "gb.welcome"
    static let signIn = "gb.signIn"
    static let entries = "gb.entries"
    static let compose = "gb.compose"
    static let settings = "gb.settings"
    static let help = "gb.help"
    static let about = "gb.about"
}

/// Where the app can go: one case carries the owner whose entries to show.
enum Screen: BoardInputModel {
    case welcome
    case signIn
    case entries(owner: String)
    case compose(draft: String)
    case settings
    case help

    var identifier: BoardID {
        switch self {
        case .welcome: return .welcome
        case .signIn: return .signIn
        case .entries: return .entries
        case .compose: return .compose
        case .settings: return .settings
        case .help: return .help
        }
    }

    var option: Any? {
        switch self {
        case let .entries(owner): return owner
        case let .compose(draft): return draft
        default: return nil
        }
    }
}

extension MotherboardType {
    func activateBoard(_ screen: Screen) {
        activateBoard(model: screen)
    }
}

extension IdentifiableBoard {
    func nextToBoard(_ screen: Screen) {
        nextToBoard(model: screen)
    }
}
