//
//  BoardIdentities.swift
//  NewsApp
//
//  Created by NewsApp on 1/22/24.
//

import AccountIO
import Boardy
import FeedIO
import Foundation

extension BoardID {
    static let welcome: BoardID = "com.newsapp.welcome"
    static let onboarding: BoardID = "com.newsapp.onboarding"
    static let editionPicker: BoardID = "com.newsapp.edition-picker"
    static let requireLogin: BoardID = "com.newsapp.require-login"
    static let settings: BoardID = "com.newsapp.settings"
    static let about: BoardID = "com.newsapp.about"
    static let share: BoardID = "com.newsapp.share"

    /// These screens moved into the modules; the app keeps its old names for them.
    static let login: BoardID = AccountID.login
    static let article: BoardID = FeedID.reader
    static let paywall: BoardID = AccountID.paywall
}

extension BoardInput {
    static var welcome: BoardInput<Void> {
        BoardInput<Void>(target: .welcome)
    }

    static var onboarding: BoardInput<Void> {
        BoardInput<Void>(target: .onboarding)
    }

    static var editionPicker: BoardInput<Void> {
        BoardInput<Void>(target: .editionPicker)
    }

    static var settings: BoardInput<Void> {
        BoardInput<Void>(target: .settings)
    }

    static var about: BoardInput<Void> {
        BoardInput<Void>(target: .about)
    }

    static var share: BoardInput<Void> {
        BoardInput<Void>(target: .share)
    }

    static var login: BoardInput<Void> {
        BoardInput<Void>(target: .login)
    }

    static var paywall: BoardInput<Void> {
        BoardInput<Void>(target: .paywall)
    }

    static func article(_ input: ArticleInput) -> BoardInput<ArticleInput> {
        BoardInput<ArticleInput>(target: .article, input: input)
    }

    static func requireLogin<T>(then target: BoardInput<T>) -> BoardInput<BoardInput<T>> {
        BoardInput<BoardInput<T>>(target: .requireLogin, input: target)
    }
}

/// Any of the app's own screens asks to be closed with it; the welcome flow handles it.
enum CloseAction: BoardFlowAction {
    case close
}
