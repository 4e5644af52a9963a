@testable import BirdRealtime
import BmobServer
import BmobTesting
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing

/// Runs seed 002's samples, unchanged, against the in-process server: the environment points the region's edge
/// host at the server and "your backend" at the server's built-in auth endpoints (standing in for the app's
/// backend, it swaps the sample's bearer token for a real user session). Handlers run on the main queue, the
/// samples' default, which Swift Testing's runner drains on Linux too (the prints prove it).
@Suite("BirdRealtime: seed 002's samples run against the server", .serialized)
struct Seed002SampleTests {
    /// The clients the samples made, and the user session "your backend" authorizes.
    ///
    /// Invariant for `@unchecked Sendable`: `made` and `token` are read and written only while `lock` is held.
    final class Context: @unchecked Sendable {
        private let lock = NSLock()
        private var made: [BirdRealtime] = []
        private var token = ""
        var clients: [BirdRealtime] { lock.withLock { made } }
        func add(_ client: BirdRealtime) { lock.withLock { made.append(client) } }
        var sessionToken: String {
            get { lock.withLock { token } }
            set { lock.withLock { token = newValue } }
        }
    }

    static func environment(_ server: BirdServer, _ context: Context) -> BirdRealtimeEnvironment {
        let port = server.port
        return BirdRealtimeEnvironment(
            edgeURL: { url in
                // wss://ws-us1.bird.com/app/your-app-key?… → ws://127.0.0.1:<port>/app/<test key>?…
                var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
                components.scheme = "ws"
                components.host = "127.0.0.1"
                components.port = port
                components.path = "/app/\(TestServer.channels.key)"
                return components.url!
            },
            authRequest: { request in
                var request = request
                let path = request.url!.path == "/bird/auth/member" ? "/1/channels/auth/member" : "/1/channels/auth"
                request.url = URL(string: "http://127.0.0.1:\(port)\(path)")
                request.setValue(nil, forHTTPHeaderField: "authorization")
                for (name, value) in server.authHeaders(token: context.sessionToken) {
                    request.setValue(value, forHTTPHeaderField: name)
                }
                return request
            },
            clientMade: { context.add($0) })
    }

    /// Runs `body` with a server, the samples' environment and a clean output record; disconnects every client.
    func withSamples(_ body: (BirdServer, Context) async throws -> Void) async throws {
        try await BirdServer.with { server in
            let context = Context()
            sampleOutput.clear()
            defer { for client in context.clients { client.disconnect() } }
            try await BirdRealtimeEnvironment.$current.withValue(Self.environment(server, context)) {
                try await body(server, context)
            }
        }
    }

    @Test("Client erstellen + Einen Channel abonnieren: a published order-updated is printed")
    func createAndSubscribe() async throws {
        try await withSamples { server, context in
            sampleCreateClient()
            let bird = try #require(context.clients.first)
            sampleSubscribe(bird: bird)
            // The samples' handlers run on the main queue, the default.
            // (On Linux the main queue is drained by a worker thread once the test runner's main thread has
            // parked in dispatch_main, so the check is the queue's mark, not Thread.isMainThread.)
            let threads = Recorder()
            let mark = DispatchSpecificKey<Int>()
            DispatchQueue.main.setSpecific(key: mark, value: 1)
            bird.subscribe("orders").bind("order-updated") { _ in
                threads.record("main=\(DispatchQueue.getSpecific(key: mark) == 1)")
            }
            try await waitUntil(timeout: 20, "subscribed") { bird.subscribe("orders").isSubscribed ? true : nil }
            try await server.publish("orders", "order-updated", #"{"id":7}"#)
            let line = try await sampleOutput.wait(prefix: "order changed:")
            #expect(line.contains("id") && line.contains("7"), "\(line)")
            try await threads.wait(prefix: "main=")
            #expect(threads.lines == ["main=true"])
        }
    }

    @Test("Private und Presence-Channels + Client-Events: me and members, a member joining, a client event")
    func presenceAndClientEvents() async throws {
        try await withSamples { server, context in
            let ada = try await server.signUp("ada", nickname: "Ada")
            let bob = try await server.signUp("bob", nickname: "Bob")
            context.sessionToken = ada.token
            samplePrivateAndPresence()
            try await sampleOutput.wait(prefix: "me: \(ada.id) members: [\"\(ada.id)\"]")
            context.sessionToken = bob.token
            samplePrivateAndPresence()
            try await sampleOutput.wait(prefix: "me: \(bob.id) members:")
            let joined = try await sampleOutput.wait(prefix: "joined:")
            #expect(joined.contains(bob.id) && joined.contains("Bob"), "\(joined)")

            let clients = context.clients
            #expect(clients.count == 2)
            let adaRoom = try #require(clients[0].subscribe("presence-room-42") as? PresenceChannel)
            let bobRoom = try #require(clients[1].subscribe("presence-room-42") as? PresenceChannel)
            let typing = Recorder()
            adaRoom.bind("client-typing") { data in typing.record(describe(data)) }
            try sampleClientEvents(room: bobRoom)
            try await typing.wait(prefix: #"{"on":true}"#)
        }
    }

    @Test(
        "Ein Mitglied anmelden + Verbindungslebenszyklus: signin, an event to the member, a terminate ends the session")
    func signinAndLifecycle() async throws {
        try await withSamples { server, context in
            let ada = try await server.signUp("ada")
            context.sessionToken = ada.token
            try await sampleSignin()
            try await sampleOutput.wait(prefix: "signed in as \(ada.id)")
            let bird = try #require(context.clients.first)
            try await waitUntil(timeout: 20, "member event") { () -> Bool? in
                sampleOutput.lines.contains { $0.hasPrefix("addressed to me:") } ? true : nil
            } orEvery: {
                try await server.publish("#server-to-user-\(ada.id)", "order.shipped", #"{"order":1}"#)
            }
            sampleLifecycle(bird: bird)
            try await server.terminate(ada.id)
            try await sampleOutput.wait(prefix: "session ended elsewhere")
            try await sampleOutput.wait(prefix: "connection: connected → failed")
        }
    }

    @Test("the development form .init(appKey:wsHost:allowInsecure:) uses ws:// to localhost")
    func insecureLocalhost() async throws {
        let bird = BirdRealtimeEnvironment.$current.withValue(
            BirdRealtimeEnvironment(makeTransport: { ClosedTransport() })
        ) { sampleInsecureLocalhost() }
        defer { bird.disconnect() }
        #expect(
            try BirdEndpoint(options: bird.options).url.absoluteString.hasPrefix(
                "ws://localhost:6001/app/your-app-key?"))
    }
}
