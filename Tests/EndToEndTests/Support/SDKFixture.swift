import BmobCore
import BmobSDK
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation

/// One in-process server for the whole test run, with the SDK's shared client initialized against it and the
/// SDK's files in a temporary folder. Its app lets clients create roles (off by default), so that `BmobRole`
/// can be used from the SDK.
enum SDKFixture {
    private static let started = Task { () throws -> TestServer in
        var security = AppSecurity()
        security.allowClientRoleCreation = true
        let server = try await TestServer.start(functions: CloudFunctionFixture.functions, security: security)
        BmobLocalStorage.setRoot(server.dataDirectory.appendingPathComponent("sdk-cache", isDirectory: true))
        Bmob.resetDomain(server.baseURL)
        try await Bmob.initialize(appKey: TestServer.applicationId)
        return server
    }

    /// The running server, after the SDK is initialized.
    static func server() async throws -> TestServer {
        try await started.value
    }

    /// The objects of `className` as REST returns them (`GET /1/classes/<C>` with the master key).
    static func restObjects(_ className: String, where condition: String? = nil) async throws -> [[String: JSONValue]] {
        let server = try await server()
        var target = "/1/classes/\(className)?limit=1000"
        if let condition {
            target += "&where=" + (condition.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }
        let response = try await server.request("GET", target, headers: server.masterHeaders)
        let json = try JSONParser.parse(response.body)
        return (json["results"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    /// One object through REST, or `nil` when it does not exist.
    static func restObject(_ className: String, _ objectId: String) async throws -> [String: JSONValue]? {
        let server = try await server()
        let response = try await server.request("GET", "/1/classes/\(className)/\(objectId)", headers: server.masterHeaders)
        guard response.status == 200 else { return nil }
        return try JSONParser.parse(response.body).objectValue
    }

    /// Creates an object through REST and returns its id.
    @discardableResult
    static func restCreate(_ className: String, _ body: JSONValue) async throws -> String {
        let server = try await server()
        var bytes: [UInt8] = []
        body.appendJSON(to: &bytes)
        let response = try await server.request(
            "POST", "/1/classes/\(className)", headers: server.appHeaders + [("Content-Type", "application/json")], body: bytes)
        guard response.status == 201, let id = try JSONParser.parse(response.body)["objectId"]?.stringValue else {
            throw FixtureError("create in \(className) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return id
    }

    /// Makes sure a `_User` row with this id exists (signup comes with the users issue; this writes the row
    /// straight into the store).
    static func ensureUser(_ objectId: String, username: String) async throws {
        do {
            try await server().seedObject(className: "_User", objectId: objectId, fields: ["username": .string(username)])
        } catch let error as StoreError where error.code == .objectIdTaken {
            // An earlier test made it.
        }
    }

    /// Deletes every object of the given classes, so a test starts from an empty class.
    static func emptyClasses(_ classNames: String...) async throws {
        let server = try await server()
        for className in classNames {
            for object in try await restObjects(className) {
                guard let id = object["objectId"]?.stringValue else { continue }
                _ = try await server.request("DELETE", "/1/classes/\(className)/\(id)", headers: server.masterHeaders)
            }
        }
    }
}

/// A fixture step that did not work.
struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
