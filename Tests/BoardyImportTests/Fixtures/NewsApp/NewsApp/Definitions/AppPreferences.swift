//
//  AppPreferences.swift
//  NewsApp
//
//  Created by NewsApp on 1/22/24.
//

import Foundation

final class AppPreferences {
    static let shared = AppPreferences(defaults: .standard)

    private let defaults: UserDefaults

    init(defaults: UserDefaults) {
        self.defaults = defaults
    }

    var hasCompletedOnboarding: Bool {
        defaults.bool(forKey: "onboarding.completed")
    }

    var edition: String {
        defaults.string(forKey: "edition") ?? "international"
    }

    func completeOnboarding(edition: String) {
        defaults.set(edition, forKey: "edition")
        defaults.set(true, forKey: "onboarding.completed")
    }
}
