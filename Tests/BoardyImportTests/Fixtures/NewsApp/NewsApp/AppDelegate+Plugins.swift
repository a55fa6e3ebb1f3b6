//
//  AppDelegate+Plugins.swift
//  NewsApp
//
//  Created by NewsApp on 2/16/24.
//

import Account
import Boardy
import Feed
import FeedIO
import Foundation
import Library

extension AppDelegate {
    func loadPlugins() {
        PluginLauncher.with(options: .default)
            .install(plugins: FeedModulePlugin.bundledPlugins)
            .install(plugins: AccountModulePlugin.bundledPlugins)
            .install(plugins: LibraryModulePlugin.bundledPlugins)
            .install(plugin: NewsAppModulePlugin())
            .initialize()
    }

    func launch() {
        PluginLauncher.shared.launch(on: window!) { mainboard in
            mainboard.ioFeed().activation.activate()

            /// First launch: the welcome flow is presented over the feed
            if !AppPreferences.shared.hasCompletedOnboarding {
                mainboard.activateBoard(.welcome)
            }
        }
    }
}
