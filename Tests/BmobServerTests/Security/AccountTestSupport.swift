import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Starts a test server on a hand-moved clock with `configure`d settings, runs `body`, and always stops it.
func withAccountServer(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer, TestClock) async throws -> Void
) async throws {
    try await withVerificationServer(configure: configure, body)
}

extension TestServer {
    /// The test app's context as a caller from `client` (an IP address) would have it.
    func accountContext(client: String? = "10.0.0.1", master: Bool = false) async throws -> AppContext {
        let runtime = try #require(await server.context.apps.runtime(id: Self.applicationId))
        return AppContext(
            runtime: runtime, isMaster: master, sessionToken: nil,
            clientAddress: client.flatMap { SocketAddress(host: $0, port: 40_000) })
    }

    /// A user service over this server's store and clock that counts its password hashing in `work`.
    func countingUserService(clock: TestClock, _ work: AccountPasswordWork) -> UserService {
        UserService(clock: clock.serverClock, hashing: server.context.blockingPool, passwordWorkObserver: work.observer)
    }

    /// Logs in with a password through REST from `source` (a `127.x.y.z` address; 127.0.0.1 when `nil`).
    func login(_ account: String, _ password: String, from source: String? = nil) async throws -> RawHTTPResponse {
        try await call(
            "POST", "/1/login", json: ["username": .string(account), "password": .string(password)], source: source)
    }

    /// Changes a user's fields straight in the store, past every check: how legacy data looks.
    func forceUserFields(_ userId: String, _ fields: [String: JSONValue]) async throws {
        let runtime = try #require(await server.context.apps.runtime(id: Self.applicationId))
        try await runtime.store.write(caller: "test") { transaction in
            guard var user = try transaction.fetch(className: "_User", objectId: userId) else {
                throw TestFailure("no user \(userId)")
            }
            for (name, value) in fields { user.fields[name] = value }
            try transaction.update(user)
        }
    }
}

/// The Bmob error code of a response, if it is an error.
func accountErrorCode(_ response: RawHTTPResponse) -> Int64? {
    response.json?["code"]?.int64Value
}
