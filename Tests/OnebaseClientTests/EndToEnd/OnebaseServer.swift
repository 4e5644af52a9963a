import BmobServer
import BmobTesting
import BmobRealtime
import BmobWire
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import OnebaseClient

/// An in-process server with the sync functions seed 004's samples call (`notes:best`, `emails:sendWelcome`,
/// besides the built-in `notes:list` / `notes:add`), and the environment that points clients at it: any URL becomes
/// the test app's base URL, offline directories and tokens live in a temporary folder.
struct OnebaseServer {
    let server: TestServer
    /// A folder of this test's own: offline stores and token files.
    let folder: URL

    /// The mails `emails:sendWelcome` "sent".
    static let welcomed = Recorder<String>()

    static var functions: CloudFunctions {
        var functions = CloudFunctions()
        functions.query("notes:best", args: ["limit": .optional(.int)]) { context, args in
            let limit = Int(args["limit"]?.int64Value ?? 3)
            return .array(try context.db.list("notes", order: "-createdAt", limit: limit).map(JSONValue.object))
        }
        functions.query("notes:mine") { context, _ in
            guard let userId = context.userId else { return [] }
            return .array(try context.db.list("notes", where: ["owner": .string(userId)]).map(JSONValue.object))
        }
        functions.mutation("notes:addMine", args: ["text": .string]) { context, args in
            guard let userId = context.userId else { throw SyncFunctionError("sign in first") }
            return .string(try context.db.insert("notes", ["text": args["text"]!, "owner": .string(userId)]))
        }
        functions.action("emails:sendWelcome", args: ["to": .string]) { _, args in
            welcomed.append(args["to"]?.stringValue ?? "")
            return .null
        }
        return functions
    }

    /// Runs `body` with a fresh server and folder, always stopping and removing them.
    static func with(_ body: (OnebaseServer) async throws -> Void) async throws {
        let server = try await TestServer.start(functions: functions)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onebase-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try await body(OnebaseServer(server: server, folder: folder))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The app's base URL.
    var url: String { "http://127.0.0.1:\(server.port)/apps/\(TestServer.applicationId)" }

    /// Clients made under ``environment(transport:)``'s environment point at this server, whatever URL they were
    /// given; their default token store is a file in `folder`, their offline directories are moved into it.
    func environment(online: (@Sendable () -> Bool)? = nil) -> OnebaseClientEnvironment {
        let url = url
        let folder = folder
        return OnebaseClientEnvironment(
            makeTransport: {
                if let online, !online() { return ScriptedTransport(failsToConnect: true) }
                return OnebaseClientEnvironment.platformTransport()
            },
            perform: { request in
                // The samples' "…" placeholders become a real address and password.
                var request = request
                if let body = request.httpBody, case .object(var members)? = try? JSONParser.parse(body) {
                    if members["email"] == "…" { members["email"] = "new-user@example.com" }
                    if members["password"] == "…" { members["password"] = "pw-new-user" }
                    request.httpBody = Data(JSONValue.object(members).jsonBytes)
                }
                return try await OnebaseClientEnvironment.urlSession(request)
            },
            url: { _ in url },
            offlineDirectory: { $0.map { _ in folder.appendingPathComponent("offline") } },
            makeTokenStore: { _ in OnebaseFileTokenStore(fileURL: folder.appendingPathComponent("token")) },
            backoff: OnebaseReconnectBackoff(initial: .milliseconds(50), maximum: .milliseconds(200)))
    }

    /// Runs `body` with clients pointed at this server.
    func withClients<T>(online: (@Sendable () -> Bool)? = nil, _ body: () async throws -> T) async throws -> T {
        try await OnebaseClientEnvironment.$current.withValue(environment(online: online)) { try await body() }
    }

    /// Signs a user up over REST (username and email the address); returns its id and session token.
    func signUp(_ email: String, password: String) async throws -> (id: String, token: String) {
        let body: JSONValue = ["username": .string(email), "email": .string(email), "password": .string(password)]
        let response = try await server.request(
            "POST", "/1/users", headers: server.appHeaders + [("Content-Type", "application/json")],
            body: body.jsonBytes)
        guard response.status == 201, let id = response.json?["objectId"]?.stringValue,
            let token = response.json?["sessionToken"]?.stringValue
        else { throw WaitTimeout(what: "sign-up of \(email): \(response.status) \(response.text)") }
        return (id, token)
    }

    /// The texts of every note, read over REST with the Master Key.
    func noteTexts() async throws -> [String] {
        let response = try await server.request(
            "GET", "/1/classes/notes?order=createdAt", headers: server.masterHeaders)
        return response.json?["results"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
    }
}
