//
//  AppDelegate.swift
//  NewsApp
//
//  Created by NewsApp on 1/22/24.
//

import Boardy
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        UIViewController.swizzling()

        window = UIWindow(frame: UIScreen.main.bounds)
        window?.makeKeyAndVisible()

        // 1. Load all plugins
        loadPlugins()

        // 2. Launch the feed as root
        launch()

        return true
    }
}
