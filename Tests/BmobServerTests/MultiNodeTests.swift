import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Several server nodes on one PostgreSQL database (whatever `BMOB_TEST_ENGINE` says): what one node writes, every
/// node's realtime subscribers hear, in order, once; and every node reads it.
@Suite("Several nodes on PostgreSQL", .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct MultiNodeTests {
    /// Starts `count` servers on one fresh database and one data folder (``withPostgresNodes``), runs `body`, stops
    /// them; `configure` sets node `index`'s configuration further, given the database's URL.
    private func withNodes(
        _ count: Int, configure: (Int, String, inout ServerConfiguration) -> Void = { _, _, _ in },
        _ body: ([TestServer]) async throws -> Void
    ) async throws {
        try await withPostgresNodes(count, configure: configure) { nodes, _ in try await body(nodes) }
    }

    @Test("writes spread over three nodes reach the subscribers of every node, in commit order, each once")
    func eventsCrossNodes() async throws {
        try await withNodes(3) { nodes in
            var subscribers: [SocketIOTestClient] = []
            for node in nodes {
                let client = try await SocketIOTestClient.connect(node)
                try await client.subscribe("Chat", .updateTable)
                subscribers.append(client)
            }
            var created: [String] = []
            for index in 0..<12 {
                let node = nodes[index % nodes.count]
                let response = try await node.call("POST", "/1/classes/Chat", json: ["n": .int(Int64(index))])
                #expect(response.status == 201, "\(response.text)")
                created.append(try #require(response.json?["objectId"]?.stringValue))
            }
            for (index, subscriber) in subscribers.enumerated() {
                var heard: [String] = []
                for _ in 0..<created.count {
                    let event = try await subscriber.nextEvent()
                    heard.append(event.data?["objectId"]?.stringValue ?? "")
                }
                #expect(heard == created, "node \(index) heard \(heard)")
                #expect(try await subscriber.expectSilence(milliseconds: 200) == nil, "node \(index) heard more")
            }
            for node in nodes {
                let count = try await node.call("GET", "/1/classes/Chat?count=1&limit=0")
                #expect(count.json?["count"] == .int(Int64(created.count)))
            }
        }
    }

    @Test("a socket.io handshake made on one node opens its WebSocket on another (no sticky sessions needed)")
    func handshakesCrossNodes() async throws {
        try await withNodes(2) { nodes in
            let client = try await SocketIOTestClient.connect(port: nodes[0].port, socketPort: nodes[1].port)
            try await client.subscribe("Chat", .updateTable)
            let response = try await nodes[0].call("POST", "/1/classes/Chat", json: ["n": 1])
            #expect(response.status == 201)
            #expect(try await client.nextEvent().data?["n"] == 1)
            // The id was used there: that node opens no other WebSocket with it. (Its issuer, which never saw it
            // used, would once: an id grants nothing but an anonymous subscriber's socket.)
            for node in nodes.dropFirst() {
                do {
                    _ = try await TestWebSocket.connect(port: node.port, path: "/socket.io/1/websocket/\(client.sid)")
                    Issue.record("node \(node.port) accepted a used id")
                } catch TestWebSocketError.refused(let response) {
                    #expect(response.status == 403)
                }
            }
        }
    }

    @Test("journal listeners connect where databaseListenURL says (past a transaction-mode pooler, to PostgreSQL)")
    func listenersConnectWhereTheListenURLSays() async throws {
        let unreachable = "postgresql://postgres@/bmob?host=/nonexistent-bmob-socket-folder&port=1"
        try await withNodes(3, configure: { index, url, configuration in
            if index == 1 { configuration.databaseListenURL = unreachable }
            // The database itself, spelled otherwise (as a pooler's bypass would be another address).
            if index == 2 { configuration.databaseListenURL = url + "&application_name=direct" }
        }) { nodes in
            var subscribers: [SocketIOTestClient] = []
            for node in nodes[1...] {
                let client = try await SocketIOTestClient.connect(node)
                try await client.subscribe("Chat", .updateTable)
                subscribers.append(client)
            }
            let response = try await nodes[0].call("POST", "/1/classes/Chat", json: ["n": 1])
            #expect(response.status == 201)
            // Node 2 listens through its listen URL (here the server itself, as a pooler's bypass would be).
            #expect(try await subscribers[1].nextEvent().data?["n"] == 1)
            // Node 1's listener cannot connect: it hears nothing of other nodes' writes, within several polls,
            // though it reads and writes through its database URL.
            #expect(try await subscribers[0].expectSilence(milliseconds: 1500) == nil)
            let count = try await nodes[1].call("GET", "/1/classes/Chat?count=1&limit=0")
            #expect(count.json?["count"] == 1)
        }
    }

    @Test("a class made on one node is readable at once through another, which also writes into it")
    func schemaCrossesNodes() async throws {
        try await withNodes(2) { nodes in
            let made = try await nodes[0].call("POST", "/1/classes/Fresh", json: ["title": "one"])
            #expect(made.status == 201, "\(made.text)")
            let id = try #require(made.json?["objectId"]?.stringValue)
            // Read your write through another node at once, before its journal listener may have woken.
            let fetched = try await nodes[1].call("GET", "/1/classes/Fresh/\(id)")
            #expect(fetched.status == 200, "\(fetched.text)")
            #expect(fetched.json?["title"] == "one")
            let second = try await nodes[1].call("POST", "/1/classes/Fresh", json: ["title": "two", "rank": 2])
            #expect(second.status == 201, "\(second.text)")
            let wrongType = try await nodes[0].call("POST", "/1/classes/Fresh", json: ["rank": "high"])
            #expect(wrongType.json?["code"] == 111, "the field node B recorded binds node A too: \(wrongType.text)")
        }
    }

    @Test("an app added while the nodes run is answered by every node; the apps live in the database, not a file")
    func appsLiveInTheDatabase() async throws {
        try await withNodes(2) { nodes in
            let storage = nodes[0].server.context.configuration.storage
            let registry = AppRegistry(dataDirectory: nodes[0].dataDirectory.path, storage: storage)
            _ = try registry.create(name: "Late", applicationId: "lateapp0000000000000000000000001", restKey: "latekey", now: 1)
            // Not in the shared data folder's file: only the database has it.
            let file = try AppRegistry(dataDirectory: nodes[0].dataDirectory.path).load()
            #expect(!file.contains { $0.applicationId == "lateapp0000000000000000000000001" })
            try await Task.sleep(for: .milliseconds(1100))  // a node re-reads its apps at most once a second
            for node in nodes {
                let response = try await node.request(
                    "GET", "/1/timestamp",
                    headers: [("X-Bmob-Application-Id", "lateapp0000000000000000000000001"), ("X-Bmob-REST-API-Key", "latekey")])
                #expect(response.status == 200, "\(response.text)")
            }
            #expect(try registry.load().map(\.applicationId).contains("lateapp0000000000000000000000001"))
            #expect(throws: (any Error).self) {
                try registry.create(name: "Again", applicationId: "lateapp0000000000000000000000001", now: 2)
            }
        }
    }

    @Test("a logout through one node ends the session on every node well before the session cache's lifetime")
    func logoutReachesEveryNode() async throws {
        try await withNodes(2) { nodes in
            let (id, token) = try await nodes[0].signUpUser("dora", password: "pw")
            let headers = [("X-Bmob-Session-Token", token)]
            // Node B resolves the session once, and caches it.
            let before = try await nodes[1].call("GET", "/1/checkSession/\(id)", headers: headers)
            #expect(before.json?["msg"] == "ok")
            let logout = try await nodes[0].call("POST", "/1/logout", json: ["objectId": .string(id)], headers: headers)
            #expect(logout.json?["msg"] == "ok", "\(logout.text)")
            let start = ContinuousClock.now
            var ended = false
            while !ended, ContinuousClock.now - start < .milliseconds(Int(SessionCache.lifetimeMilliseconds) / 2) {
                let check = try await nodes[1].call("GET", "/1/checkSession/\(id)", headers: headers)
                ended = check.json?["msg"] == "fail"
                if !ended { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(ended, "node B still accepted the token half a cache lifetime after the logout")
        }
    }
}
