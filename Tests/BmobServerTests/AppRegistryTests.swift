import BmobServer
import Foundation
import Testing

@Suite struct AppRegistryTests {
    private func withDirectory(_ body: (AppRegistry) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-apps-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(AppRegistry(dataDirectory: directory))
    }

    @Test func createdAppsAreListedWithGeneratedKeys() throws {
        try withDirectory { registry in
            #expect(try registry.load().isEmpty)
            let first = try registry.create(name: "One", now: 10)
            let second = try registry.create(name: "Two", applicationId: "two", restKey: "rest", masterKey: "master", secretKey: "0123456789abcdef", now: 20)
            #expect(first.applicationId.count == 32)
            #expect(first.restKey.count == 32)
            #expect(first.masterKey.count == 32)
            #expect(first.secretKey.count == 16)
            #expect(Set([first.applicationId, first.restKey, first.masterKey]).count == 3)
            #expect(second.applicationId == "two")
            #expect(try registry.load() == [first, second])
            #expect(FileManager.default.fileExists(atPath: registry.appDirectory("two")))
        }
    }

    @Test func duplicateIdsAndBadKeysAreRefused() throws {
        try withDirectory { registry in
            _ = try registry.create(name: "One", applicationId: "same", now: 0)
            #expect(throws: ConfigurationError.self) { try registry.create(name: "Again", applicationId: "same", now: 0) }
            #expect(throws: ConfigurationError.self) { try registry.create(name: "X", secretKey: "short", now: 0) }
            #expect(throws: ConfigurationError.self) { try registry.create(name: "X", restKey: "has space", now: 0) }
            #expect(throws: ConfigurationError.self) { try registry.create(name: "X", applicationId: "../escape", now: 0) }
            #expect(throws: ConfigurationError.self) { try registry.create(name: "", now: 0) }
            #expect(try registry.load().count == 1)
        }
    }

    @Test func registryFileIsPrivate() throws {
        try withDirectory { registry in
            _ = try registry.create(name: "One", now: 0)
            let attributes = try FileManager.default.attributesOfItem(atPath: registry.registryPath)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test func constantTimeEqualsComparesWholeStrings() {
        #expect(AppKeys.constantTimeEquals("abc", "abc"))
        #expect(!AppKeys.constantTimeEquals("abc", "abd"))
        #expect(!AppKeys.constantTimeEquals("abc", "abcd"))
        #expect(!AppKeys.constantTimeEquals("", "a"))
    }
}
