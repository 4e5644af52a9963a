import BmobCore
import BmobRealtime
import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

extension EndToEnd {
    /// BmobEvent against the in-process socket.io gateway: reconnection across a server restart,
    /// disconnect semantics, several consumers at once.
    @Suite("Realtime behaviour", .timeLimit(.minutes(2)))
    struct RealtimeBehaviourTests {
        @Test("after a server restart on the same port and data folder, subscriptions are restored within 6 s, without duplicates")
        @MainActor
        func reconnectsAfterRestart() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-restart-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            var server = try await TestServer.start(dataDirectory: directory)
            let port = server.port
            let client = BmobClient()
            client.resetDomain(server.baseURL)
            try await client.initialize(appKey: TestServer.applicationId)
            let event = BmobEvent(environment: .live(client: client))
            let recorder = RealtimeRecorder()
            event.delegate = recorder
            let collector = EventCollector(event.eventStream())
            event.listenTableChange(className: "Restart")
            event.connect()
            try await RealtimeFixture.waitUntilLive(event, server: server)
            let first = try await RealtimeFixture.create("Restart", ["n": 1], on: server)
            try await collector.wait("the first row") { $0.contains { $0.objectId == first } }

            await server.stop()
            let dropped = ContinuousClock.now
            server = try await TestServer.restart(dataDirectory: directory, port: port)
            try await recorder.wait(timeout: 8, "the second ready") { $0.readyTimes.count == 2 }
            let restoredAfter = recorder.readyTimes[1] - dropped
            #expect(restoredAfter <= .seconds(6), "restored after \(restoredAfter)")
            #expect(recorder.calls.contains(.disconnected(failed: true)))
            #expect(!collector.hasEnded)

            // The Restart subscription was sent again: a new row arrives once.
            try await RealtimeFixture.waitUntilLive(event, server: server)
            let second = try await RealtimeFixture.create("Restart", ["n": 2], on: server)
            try await collector.wait("the second row") { $0.contains { $0.objectId == second } }
            try await Task.sleep(for: .milliseconds(500))
            let restart = collector.messages.filter { $0.className == "Restart" }
            #expect(restart.compactMap(\.objectId) == [first, second])
            #expect(recorder.messages.filter { $0.className == "Restart" }.count == 2)
            #expect(event.isConnected)

            event.disconnect()
            try await collector.waitForEnd()
            await server.stop()
        }

        @Test("without autoReconnect a drop ends the streams and reports the disconnect once")
        @MainActor
        func noAutoReconnect() async throws {
            let server = try await TestServer.start()
            let client = BmobClient()
            client.resetDomain(server.baseURL)
            try await client.initialize(appKey: TestServer.applicationId)
            let event = BmobEvent(environment: .live(client: client))
            #expect(event.autoReconnect)
            event.autoReconnect = false
            let recorder = RealtimeRecorder()
            event.delegate = recorder
            let collector = EventCollector(event.eventStream())
            event.connect()
            try await recorder.wait("ready") { $0.calls.contains(.ready) }
            await server.stop()
            try await collector.waitForEnd()
            #expect(!event.isConnected)
            try await Task.sleep(for: .milliseconds(300))
            #expect(recorder.calls == [.connected, .ready, .disconnected(failed: true)])
        }

        @Test("disconnect ends every stream and keeps subscriptions; a new stream and connect resume, without replay")
        func disconnectAndResume() async throws {
            _ = try await SDKFixture.server()
            let event = BmobEvent()
            let before = EventCollector(event.eventStream())
            let alsoBefore = EventCollector(event.eventStream())
            event.listenTableChange(className: "Pause")
            event.listenTableChange(className: "Pause")  // a duplicate is registered once
            event.connect()
            try await RealtimeFixture.waitUntilLive(event)
            #expect(event.isConnected)

            event.disconnect()
            try await before.waitForEnd()
            try await alsoBefore.waitForEnd()
            #expect(!event.isConnected)
            #expect(event.subscriptions == [BmobEventSubscription(tableName: "Pause", action: .updateTable)])
            let missed = try await RealtimeFixture.create("Pause", ["when": "disconnected"])

            let after = EventCollector(event.eventStream())
            event.connect()
            try await RealtimeFixture.waitUntilLive(event)
            let seen = try await RealtimeFixture.create("Pause", ["when": "connected"])
            try await after.wait("the new row") { $0.contains { $0.objectId == seen } }
            try await Task.sleep(for: .milliseconds(300))
            let pause = after.messages.filter { $0.className == "Pause" }
            #expect(pause.compactMap(\.objectId) == [seen])
            #expect(!pause.contains { $0.objectId == missed })
            event.stop()
            try await after.waitForEnd()
            try await RealtimeFixture.delete("Pause", missed)
            try await RealtimeFixture.delete("Pause", seen)
        }

        @Test("several streams and the delegate at once; cancelling one stream leaves the others and the connection")
        @MainActor
        func severalConsumers() async throws {
            _ = try await SDKFixture.server()
            #expect(BmobEvent.shared === BmobEvent.shared)
            let event = BmobEvent()
            let recorder = RealtimeRecorder()
            event.delegate = recorder
            let streams = (0..<3).map { _ in EventCollector(event.eventStream()) }
            event.listenRowChange(className: "Fanout", objectId: "placeholder")  // short row form: updates only
            event.listenTableChange(className: "Fanout")
            event.connect()
            try await RealtimeFixture.waitUntilLive(event)
            #expect(recorder.calls.prefix(2) == [.connected, .ready])

            let a = try await RealtimeFixture.create("Fanout", ["n": 1])
            for stream in streams {
                try await stream.wait("row a") { $0.contains { $0.objectId == a } }
            }
            try await recorder.wait("row a") { $0.messages.contains { $0.objectId == a } }

            streams[2].task.cancel()
            try await streams[2].waitForEnd()
            let b = try await RealtimeFixture.create("Fanout", ["n": 2])
            try await streams[0].wait("row b") { $0.contains { $0.objectId == b } }
            try await streams[1].wait("row b") { $0.contains { $0.objectId == b } }
            try await recorder.wait("row b") { $0.messages.contains { $0.objectId == b } }
            #expect(!streams[2].messages.contains { $0.objectId == b })
            #expect(event.isConnected)
            for stream in streams.prefix(2) {
                #expect(stream.messages.filter { $0.className == "Fanout" }.compactMap(\.objectId) == [a, b])
            }

            event.disconnect()
            try await recorder.wait("the disconnect") { $0.calls.last == .disconnected(failed: false) }
            for stream in streams { try await stream.waitForEnd() }
            try await RealtimeFixture.delete("Fanout", a)
            try await RealtimeFixture.delete("Fanout", b)
        }
    }
}
