import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// A validator a deployment adds for its own platform: accepts tokens that start with "good-".
private struct PrefixValidator: AuthDataValidator {
    func validate(platform: String, authData: [String: JSONValue]) async throws -> String {
        guard case .string(let token)? = authData["code"], token.hasPrefix("good-") else {
            throw BmobAPIError(.authDataError, "rejected by the test platform")
        }
        return String(token.dropFirst(5))
    }
}

@Suite("Pluggable third-party login validators")
struct AuthDataPluggingTests {
    @Test("a validator type registered at start serves the apps that name it")
    func plugged() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-plug-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try AppRegistry(dataDirectory: folder.path).create(
            name: "Plug", applicationId: TestServer.applicationId, restKey: TestServer.restKey,
            masterKey: TestServer.masterKey, secretKey: TestServer.secretKey,
            authProviders: ["weixin": ["type": "wechat-api"]], now: 0)
        let validators = AuthDataValidators.builtIn.registering("wechat-api") { _ in PrefixValidator() }
        let server = try await TestServer.start(dataDirectory: folder, authValidators: validators)
        defer { Task { await server.stop() } }
        let good = try await server.call("POST", "/1/users", json: ["authData": ["weixin": ["code": "good-u1"]]])
        #expect(good.status == 201, "\(good.text)")
        #expect(good.json?["authData"]?["weixin"]?["id"] == "u1")
        let bad = try await server.call("POST", "/1/users", json: ["authData": ["weixin": ["code": "bad"]]])
        #expect(bad.json?["code"] == 208)
    }
}
