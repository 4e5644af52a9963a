// swift-tools-version: 6.0
// A Bmob server with Swift cloud functions and triggers of its own: `swift run custom-server --data ./data`.
import PackageDescription

let package = Package(
    name: "CustomServer",
    platforms: [.macOS(.v15)],
    // Named, so that the product below finds it whatever the checkout's folder is called.
    dependencies: [.package(name: "BmobSwiftSDK", path: "../..")],
    targets: [
        .executableTarget(name: "custom-server", dependencies: [.product(name: "BmobServer", package: "BmobSwiftSDK")], path: "Sources/custom-server")
    ],
    swiftLanguageModes: [.v6]
)
