import BmobSDK
import BmobTesting
import Testing

#if canImport(UIKit)
import UIKit
#endif
#if canImport(SwiftUI)
import SwiftUI
#endif

// The seed's 初始化 section, compiled as written. Placeholders ("your-application-id",
// "https://your-private-cloud.com") are replaced by the test server's app and address.

#if canImport(UIKit)
// AppDelegate.swift
final class SampleAppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        Task {
            do {
                try await Bmob.initialize(appKey: TestServer.applicationId)
            } catch {
                print("初始化失败: \(error)")
            }
        }
        return true
    }
}
#endif

#if canImport(SwiftUI)
// SwiftUI App (not `@main` here: the test bundle has its own entry point)
struct SampleApp: App {
    init() {
        Task {
            try? await Bmob.initialize(appKey: TestServer.applicationId)
        }
    }

    var body: some Scene {
        WindowGroup { Text("Bmob") }
    }
}
#endif

extension EndToEnd {
    @Suite("Seed samples: 初始化")
    struct InitializationSamples {
        @Test("基础初始化: the AppDelegate's Task initializes the SDK")
        func basicInitialization() async throws {
            _ = try await SDKFixture.server()
            // The body of the AppDelegate and SwiftUI samples above, which only compile on Apple platforms.
            let task = Task {
                do {
                    try await Bmob.initialize(appKey: TestServer.applicationId)
                } catch {
                    print("初始化失败: \(error)")
                }
            }
            await task.value
            #expect(await Bmob.isReady)
        }

        @Test("自定义域名（私有云）: resetDomain before initialize")
        func privateCloudDomain() async throws {
            let server = try await SDKFixture.server()
            // 在 initialize 之前调用
            Bmob.resetDomain(server.baseURL)
            try await Bmob.initialize(appKey: TestServer.applicationId)
            #expect(await Bmob.isReady)
        }

        @Test("检查初始化状态: isReady")
        func readiness() async throws {
            _ = try await SDKFixture.server()
            var ready = false
            if await Bmob.isReady {
                // SDK 已就绪
                ready = true
            }
            #expect(ready)
        }

        @Test("an unknown app fails to initialize with the server's error, and a good one recovers")
        func unknownApp() async throws {
            _ = try await SDKFixture.server()
            await #expect(throws: BmobError.self) { try await Bmob.initialize(appKey: "no-such-app") }
            #expect(await Bmob.isReady == false)
            try await Bmob.initialize(appKey: TestServer.applicationId)
            #expect(await Bmob.isReady)
        }
    }
}
