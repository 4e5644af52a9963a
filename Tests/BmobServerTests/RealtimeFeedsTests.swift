import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Journal feeds: neutral changes to the consumers with interest, from their interest on; feeds as child
/// tasks of `RealtimeFeeds.run()`, and that as a child of `Server.run()`, each ended by cancellation.
@Suite struct RealtimeFeedsTests {
    /// Every change it is given, in order.
    final class Consumer: RealtimeChangeConsumer {
        let changes: AsyncStreamRecorder<RealtimeChange>
        private let continuation: AsyncStream<RealtimeChange>.Continuation

        init() {
            let (stream, continuation) = AsyncStream<RealtimeChange>.makeStream(bufferingPolicy: .unbounded)
            self.changes = AsyncStreamRecorder(stream)
            self.continuation = continuation
        }

        deinit { continuation.finish() }

        func consume(_ changes: [RealtimeChange], of runtime: AppRuntime) async {
            for change in changes { continuation.yield(change) }
        }

        /// Waits for `count` changes in all and returns them.
        func wait(for count: Int) async throws -> [RealtimeChange] {
            try await changes.wait("\(count) changes") { $0.count >= count }
        }
    }

    func runtime(of server: TestServer) throws -> AppRuntime {
        try #require(server.server.context.apps.openedRuntime(id: TestServer.applicationId))
    }

    @Test func aFeedYieldsNeutralChangesToEachConsumerFromItsInterestOn() async throws {
        try await withTestServer { server in
            let feeds = RealtimeFeeds(logger: .disabled)
            let early = Consumer(), late = Consumer()
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await feeds.run() }
                let feed = try #require(feeds.feed(for: try runtime(of: server)))
                #expect(feeds.feed(for: try runtime(of: server)) === feed, "one feed per app")
                _ = try await server.create("Chat", ["n": 0])  // before any interest: nobody gets it
                feed.addInterest(of: early)
                let first = try await server.create("Chat", ["n": 1])
                feed.addInterest(of: late)
                feed.addInterest(of: late)  // twice: two registrations
                _ = try await server.call("PUT", "/1/classes/Chat/\(first)", json: ["n": 2])

                let seen = try await early.wait(for: 2)
                #expect(seen.map(\.op) == [.create, .update])
                #expect(seen.allSatisfy { $0.className == "Chat" && $0.objectId == first })
                #expect(seen[0].before == nil && seen[0].after?["n"] == 1)
                #expect(seen[1].before?["n"] == 1 && seen[1].after?["n"] == 2)
                #expect(seen[0].seq < seen[1].seq)
                #expect(try await late.wait(for: 1).map(\.op) == [.update], "only what committed after its interest")

                // Interest ends with the last registration; a change meanwhile is not replayed when it comes back.
                feed.removeInterest(of: early)
                feed.removeInterest(of: late)
                _ = try await server.create("Chat", ["n": 3])  // early has none; late still has one
                #expect(try await late.wait(for: 2).last?.after?["n"] == 3)
                feed.removeInterest(of: late)
                _ = try await server.create("Chat", ["n": 4])  // nobody has interest
                feed.addInterest(of: early)
                _ = try await server.create("Chat", ["n": 5])
                #expect(try await early.wait(for: 3).last?.after?["n"] == 5)
                _ = try await server.call("DELETE", "/1/classes/Chat/\(first)")
                let deleted = try await early.wait(for: 4).last
                #expect(deleted?.op == .delete && deleted?.after == nil && deleted?.before?["n"] == 2)
                #expect(late.changes.elements.count == 2)
                group.cancelAll()
            }
        }
    }

    @Test func cancellingRunEndsItsFeedTasksAndShutdownRefusesNewFeeds() async throws {
        try await withTestServer { server in
            let feeds = RealtimeFeeds(logger: .disabled)
            let consumer = Consumer()
            let runtime = try runtime(of: server)
            // `run()` returns only once its child tasks, one per feed, have ended.
            await withDiscardingTaskGroup { group in
                group.addTask { await feeds.run() }
                feeds.feed(for: runtime)?.addInterest(of: consumer)
                group.cancelAll()
            }
            // Cancelled feeds read nothing more.
            _ = try await server.create("Chat", ["n": 1])
            #expect(consumer.changes.elements.isEmpty)

            let other = RealtimeFeeds(logger: .disabled)
            #expect(other.feed(for: runtime) != nil)
            other.shutdown()
            await other.run()  // returns at once: shut down before it ran
            #expect(other.feed(for: runtime) == nil)
            #expect(other.existingFeed(appId: TestServer.applicationId) != nil)
        }
    }

    @Test func serverRunIsTheRootOfHTTPAndTheFeedsAndCancellingItStopsBoth() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The folder with the test app in apps.json, which the plain server below (SQLite) reads.
        await (try await TestServer.start(dataDirectory: folder) { $0.storage = .sqlite() }).stop()
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.loops = 2
        configuration.dataDirectory = folder.path
        configuration.shutdownGraceSeconds = 1
        let server = try await Server.start(configuration: configuration, logger: .disabled)
        let port = Int(server.localAddress.port)
        // Started servers accept at once, but the journal feeds read only under run().
        let client = try await SocketIOTestClient.connect(port: port)
        try await client.subscribe("Chat", .updateTable)
        let create = try RawHTTPConnection(port: port)
        try await create.send(
            HTTPRequestText.make(
                "POST", "/1/classes/Chat",
                headers: [
                    ("X-Bmob-Application-Id", TestServer.applicationId), ("X-Bmob-REST-API-Key", TestServer.restKey),
                ],
                json: #"{"n":1}"#))
        #expect(try await create.readResponse().status == 201)
        #expect(try await client.expectSilence() == nil)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await server.run() }
            let event = try await client.nextEvent()
            #expect(event.data?["n"] == 1, "the feed reads once run() runs it")
            group.cancelAll()
        }
        // run() has returned, so its services have ended: the WebSocket got its close frame, nothing listens,
        // and a second run() returns at once.
        #expect(try await client.socket.nextClose() == .goingAway)
        #expect(throws: (any Error).self) { try RawHTTPConnection(port: port) }
        await server.run()
        await server.shutdown()
    }
}
