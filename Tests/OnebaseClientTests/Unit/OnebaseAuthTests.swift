import BmobTesting
import BmobWire
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import OnebaseClient
import Testing

/// Password sign-in, sign-out and tokens over a scripted HTTP server and socket.
@Suite("OnebaseClient auth", .serialized)
struct OnebaseAuthTests {
    /// Answers HTTP requests from a script, recording them.
    ///
    /// Invariant for `@unchecked Sendable`: `requests` and `answers` are read and written only while `lock` is held.
    final class HTTPScript: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [URLRequest] = []
        private var answers: [(Int, JSONValue)] = []

        func answer(_ status: Int, _ body: JSONValue) { lock.withLock { answers.append((status, body)) } }
        var recorded: [URLRequest] { lock.withLock { requests } }

        func perform(_ request: URLRequest) throws -> (Data, Int) {
            try lock.withLock {
                requests.append(request)
                guard !answers.isEmpty else { throw URLError(.notConnectedToInternet) }
                let (status, body) = answers.removeFirst()
                return (Data(body.jsonBytes), status)
            }
        }
    }

    @Test(
        "signIn stores the token and reconnects with it; signUp answers nil; errors carry message and code; signOut revokes and forgets"
    )
    func passwordFlows() async throws {
        let folder = MachineHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = ScriptedServer()
        let http = HTTPScript()
        var environment = server.environment(tokenFolder: folder)
        environment.perform = { try http.perform($0) }
        try await OnebaseClientEnvironment.$current.withValue(environment) {
            let auth = Recorder<Bool>()
            // Handlers set in the initializer's main-queue turn hear everything.
            let client = await MainActor.run {
                let client = OnebaseClient(url: "http://127.0.0.1:1/apps/a")
                client.onAuthChange = { auth.append($0) }
                return client
            }
            let first = try await server.openSocket()
            #expect(first.sent[1]["tokenType"] == "None")

            http.answer(200, ["token": "t1", "userId": "u1"])
            #expect(try await client.signInPassword(email: "a@example.com", password: "pw") == "t1")
            let request = try #require(http.recorded.last)
            #expect(request.url?.absoluteString == "http://127.0.0.1:1/apps/a/api/auth/password")
            #expect(request.httpMethod == "POST")
            let body = try JSONParser.parse(request.httpBody ?? Data())
            #expect(body == ["email": "a@example.com", "password": "pw", "flow": "signIn"])
            #expect(OnebaseFileTokenStore(fileURL: folder.appendingPathComponent("token")).loadToken() == "t1")
            let signedIn = try await waitUntil("the client reconnects with the token") {
                server.transports.last.flatMap { $0 !== first && $0.sent.count >= 2 ? $0 : nil }
            }
            #expect(first.isClosed)
            #expect(signedIn.sent[1]["tokenType"] == "User" && signedIn.sent[1]["value"] == "t1")
            signedIn.serverSends(.authOk(baseVersion: 0, userId: "u1"))
            try await waitUntil("onAuthChange(true)") { auth.all == [true] }

            http.answer(200, ["token": nil, "started": true])
            #expect(try await client.signInPassword(email: "b@example.com", password: "pw", flow: "signUp") == nil)
            http.answer(200, ["token": "t2", "userId": "u2"])
            _ = try await client.signInPassword(email: "b@example.com", password: "123456", flow: "email-verification")
            let verification = try JSONParser.parse(http.recorded.last?.httpBody ?? Data())
            #expect(verification["code"] == "123456" && verification["flow"] == "email-verification")

            http.answer(400, ["code": 101, "error": "username or password incorrect"])
            await #expect(
                throws: OnebaseError(
                    message: "username or password incorrect",
                    data: ["code": 101, "error": "username or password incorrect", "status": 400])
            ) {
                try await client.signInPassword(email: "a@example.com", password: "wrong")
            }

            http.answer(200, [:])
            try await client.signOut()
            let revoke = try #require(http.recorded.last)
            #expect(revoke.url?.path == "/apps/a/api/auth/signOut")
            #expect(revoke.value(forHTTPHeaderField: "Authorization") == "Bearer t2")
            #expect(OnebaseFileTokenStore(fileURL: folder.appendingPathComponent("token")).loadToken() == nil)
            let signedOut = try await waitUntil("the client reconnects signed out") {
                server.transports.last.flatMap {
                    $0.sent.count >= 2 && $0.sent[1]["tokenType"] == "None" && !$0.isClosed ? $0 : nil
                }
            }
            _ = signedOut
        }
    }

    @Test("a refused token is deleted from the store, onAuthChange(false), and the client goes on signed out")
    func refusedToken() async throws {
        let folder = MachineHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = OnebaseFileTokenStore(fileURL: folder.appendingPathComponent("token"))
        try store.saveToken("stale")
        let server = ScriptedServer()
        try await OnebaseClientEnvironment.$current.withValue(server.environment(tokenFolder: folder)) {
            let auth = Recorder<Bool>()
            let client = await MainActor.run {
                let client = OnebaseClient(url: "http://127.0.0.1:1")
                client.onAuthChange = { auth.append($0) }
                return client
            }
            let socket = try await server.openSocket()
            #expect(socket.sent[1]["value"] == "stale")
            socket.serverSends(
                .authError(error: "the token is unknown or expired", baseVersion: 0, authUpdateAttempted: true))
            try await waitUntil("onAuthChange(false)") { auth.all == [false] }
            #expect(store.loadToken() == nil)
            let next = try await waitUntil("the client reconnects signed out") {
                server.transports.last.flatMap { $0 !== socket && $0.sent.count >= 2 ? $0 : nil }
            }
            #expect(next.sent[1]["tokenType"] == "None")
            #expect(client.queuedMutationCount == 0)
        }
    }

    @Test("a custom token store is used: its token is sent, setToken saves into it")
    func customStore() async throws {
        /// A token store in memory.
        final class MemoryStore: OnebaseTokenStore, @unchecked Sendable {
            // Invariant for `@unchecked Sendable`: `token` is read and written only while `lock` is held.
            private let lock = NSLock()
            private var token: String? = "mine"
            func loadToken() -> String? { lock.withLock { token } }
            func saveToken(_ token: String) throws { lock.withLock { self.token = token } }
            func deleteToken() { lock.withLock { token = nil } }
        }
        let folder = MachineHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = ScriptedServer()
        let store = MemoryStore()
        try await OnebaseClientEnvironment.$current.withValue(server.environment(tokenFolder: folder)) {
            let client = OnebaseClient(url: "http://127.0.0.1:1", offlineDirectory: nil, tokenStore: store)
            let socket = try await server.openSocket()
            #expect(socket.sent[1]["value"] == "mine")
            client.setToken("external")
            #expect(store.loadToken() == "external")
        }
    }
}
