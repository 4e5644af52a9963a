import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Three `bmob serve` processes on one PostgreSQL database, as `make cluster` runs them: one is killed with
/// SIGKILL while writes and realtime events stream through all three.
@Suite(
    "Node processes on PostgreSQL",
    .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct NodeProcessTests {
    /// One `bmob serve` child process and its port.
    final class Node: Sendable {
        let process: ChildProcess
        let port: Int

        /// Starts `bmob serve` on port 0 with the apps and objects in `database`, and waits for its listening line.
        init(folder: URL, database: String) throws {
            let text: String
            (process, text) = try CLITests.serve(
                [
                    "--port", "0", "--data", folder.path, "--database", database, "--log-level", "error",
                    // As test servers do: a fully loaded suite on two cores may take seconds between a handshake
                    // and its WebSocket, or to send a request's headers.
                    "--realtime-handshake-lifetime-seconds", "60", "--header-timeout", "60",
                ],
                error: .inherit)
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            else {
                process.send(SIGKILL)
                throw TestFailure("bmob serve did not start: \(text)")
            }
            self.port = port
            // Nothing else is read from its output: keep the pipe drained so that it never blocks.
            let process = self.process
            BmobIO.Thread.spawn(name: "node-output") {
                while !ChildProcess.read(process.output!).isEmpty {}
            }.detach()
        }

        deinit {
            process.send(SIGKILL)
        }
    }

    /// The test app's REST headers.
    static let appHeaders = [
        ("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-REST-API-Key", TestServer.restKey),
    ]

    /// What became of one create request.
    enum Outcome: Equatable {
        /// Answered 201: the object is stored.
        case acknowledged
        /// Never reached the node, or the node refused it: nothing was written.
        case refused
        /// Sent, but the node died before answering: written or not.
        case inDoubt
    }

    /// `POST /1/classes/Chat {"n": n}` to the node on `port`.
    static func create(_ n: Int, port: Int) async -> Outcome {
        let connection: RawHTTPConnection
        do {
            connection = try RawHTTPConnection(port: port, timeout: 30)
        } catch {
            return .refused
        }
        let body = JSONValue.object(["n": .int(Int64(n))]).jsonBytes
        do {
            try await connection.send(
                HTTPRequestText.make(
                    "POST", "/1/classes/Chat", headers: Self.appHeaders + [("Content-Type", "application/json")],
                    body: body))
        } catch {
            return .refused
        }
        guard let response = try? await connection.readResponse() else { return .inDoubt }
        return response.status == 201 ? .acknowledged : .refused
    }

    /// The `n` of each event a subscriber hears, until it has heard every number of `expected` (or 30 s pass),
    /// then anything more within 300 ms.
    static func hear(_ client: SocketIOTestClient, until expected: Set<Int>) async throws -> [Int] {
        var heard: [Int] = []
        let deadline = Date().addingTimeInterval(30)
        while !expected.isSubset(of: Set(heard)), Date() < deadline {
            let event = try await client.nextEvent()
            heard.append(Int(event.data?["n"]?.int64Value ?? -1))
        }
        while let packet = try await client.expectSilence(milliseconds: 300) {
            let event = try BmobRealtimePublication(packet: packet)
            heard.append(Int(event.data?["n"]?.int64Value ?? -1))
        }
        return heard
    }

    @Test("a node killed with SIGKILL mid-stream loses no acknowledged write; the others' subscribers hear each write once, in order; its subscribers reconnect elsewhere")
    func killedNode() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-processes-\(UUID().uuidString)")
        let (database, url) = try await withoutBlockingThePool { try TestPostgres.makeDatabase() }
        defer {
            try? FileManager.default.removeItem(at: folder)
            TestPostgres.dropDatabase(database)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let registry = AppRegistry(dataDirectory: folder.path, storage: .postgres(url: url))
        _ = try registry.create(
            name: "Test", applicationId: TestServer.applicationId, restKey: TestServer.restKey,
            masterKey: TestServer.masterKey, secretKey: TestServer.secretKey, now: 0)
        let nodes = try await withoutBlockingThePool { try (0..<3).map { _ in try Node(folder: folder, database: url) } }
        var subscribers: [[SocketIOTestClient]] = []
        for node in nodes {
            var own: [SocketIOTestClient] = []
            for _ in 0..<2 {
                let client = try await SocketIOTestClient.connect(port: node.port)
                try await client.subscribe("Chat", .updateTable)
                own.append(client)
            }
            subscribers.append(own)
        }

        // Writes go round the nodes, as a load balancer sends them; a node that refuses is skipped from then on.
        var outcomes: [Int: Outcome] = [:]
        var alive = [true, true, true]
        var killer: Task<Void, Never>?
        for n in 0..<60 {
            if n == 20 {
                // Killed while the next writes are on their way to it.
                let victim = nodes[0].process
                killer = Task.detached {
                    try? await Task.sleep(for: .milliseconds(5))
                    victim.send(SIGKILL)
                }
            }
            var outcome = Outcome.refused
            for attempt in 0..<3 {
                let index = (n + attempt) % 3
                guard alive[index] else { continue }
                outcome = await Self.create(n, port: nodes[index].port)
                if outcome == .acknowledged || outcome == .inDoubt { break }
                alive[index] = false
            }
            outcomes[n] = outcome
        }
        await killer?.value
        #expect(await nodes[0].process.waitForExit() == .signaled(SIGKILL))
        let acknowledged = outcomes.filter { $0.value == .acknowledged }.map(\.key).sorted()
        let inDoubt = Set(outcomes.filter { $0.value == .inDoubt }.map(\.key))
        #expect(outcomes.values.allSatisfy { $0 != .refused }, "every write found a live node")
        #expect(inDoubt.count <= 1, "only a write in flight when the node died may be in doubt")
        #expect(!alive[0], "the writes noticed the killed node")

        // The surviving nodes' subscribers hear every acknowledged write once, in commit (here: request) order.
        for (index, clients) in subscribers.enumerated().dropFirst() {
            for client in clients {
                let heard = try await Self.hear(client, until: Set(acknowledged))
                #expect(heard.filter { !inDoubt.contains($0) } == acknowledged, "node \(index) heard \(heard)")
                #expect(Set(heard).count == heard.count, "node \(index) heard a write twice")
            }
        }
        // The killed node's subscribers lose their connection, reconnect to another node and hear what follows.
        for client in subscribers[0] {
            while (try? await client.nextPacket()) != nil {}
        }
        var moved: [SocketIOTestClient] = []
        for _ in subscribers[0] {
            let client = try await SocketIOTestClient.connect(port: nodes[1].port)
            try await client.subscribe("Chat", .updateTable)
            moved.append(client)
        }
        var later: [Int] = []
        for n in 60..<66 {
            #expect(await Self.create(n, port: nodes[n % 2 + 1].port) == .acknowledged)
            later.append(n)
        }
        for client in moved {
            #expect(try await Self.hear(client, until: Set(later)) == later)
        }
        // Nothing acknowledged was lost: the database holds each acknowledged write once.
        let connection = try RawHTTPConnection(port: nodes[2].port)
        try await connection.send(
            HTTPRequestText.make("GET", "/1/classes/Chat?limit=1000&keys=n", headers: Self.appHeaders))
        let stored = try await connection.readResponse().json?["results"]?.arrayValue?.compactMap { $0["n"]?.int64Value }
            .map { Int($0) } ?? []
        #expect(Set(stored).count == stored.count, "no write stored twice")
        #expect(Set(acknowledged + later).isSubset(of: Set(stored)))
        #expect(Set(stored).subtracting(acknowledged + later).isSubset(of: inDoubt))
    }
}
