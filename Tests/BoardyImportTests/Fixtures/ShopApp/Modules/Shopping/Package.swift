// swift-tools-version: 5.9
import PackageDescription

let package = Package(
    name: "Shopping",
    platforms: [.iOS(.v14)],
    products: [
        .library(name: "Shopping", targets: ["Shopping"]),
        .library(name: "ShoppingIO", targets: ["ShoppingIO"]),
    ],
    dependencies: [
        .package(url: "https://github.com/congncif/boardy", from: "1.63.0"),
    ],
    targets: [
        .target(name: "ShoppingIO", dependencies: [.product(name: "Boardy", package: "boardy")]),
        .target(name: "Shopping", dependencies: ["ShoppingIO", .product(name: "Boardy", package: "boardy")], exclude: ["Deprecated"]),
        .testTarget(name: "ShoppingTests", dependencies: ["Shopping"]),
    ]
)
