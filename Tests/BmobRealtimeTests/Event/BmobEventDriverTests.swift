import BmobTesting
import BmobCore
import BmobRealtime
import BmobWire
import Foundation
import Testing

/// BmobEvent's driver with an in-memory server: URLs and headers, the order of packets, streams and the
/// delegate together, reconnection and disconnection. The end-to-end suite repeats the main paths against
/// the real gateway.
@Suite("BmobEvent driver with an in-memory server", .timeLimit(.minutes(1)))
struct BmobEventDriverTests {
    static let ready = BmobRealtimeEventName.readyPacket.encoded

    static func publication(_ table: String, _ action: String, objectId: String = "", data: [String: JSONValue]) -> String {
        BmobRealtimePublication(rawValue: [
            "appKey": .string(FakeRealtimeServer.appKey), "tableName": .string(table), "objectId": .string(objectId),
            "action": .string(action), "data": .object(data),
        ]).packet().encoded
    }

    @Test("two-step connect: handshake URL, WebSocket URL and Origin; isConnected after 1::; subscriptions after ready")
    func connect() async throws {
        let server = FakeRealtimeServer()
        let event = BmobEvent(environment: server.environment())
        event.listenTableChange(className: "Chat")
        event.listenTableChange(className: "Chat")
        event.listenRowChange(.deleteRow, tableName: "Chat", objectId: "r1")
        event.connect()
        let transport = try await server.transport(0)
        #expect(server.handshakes.map(\.absoluteString) == ["http://127.0.0.1:3010/socket.io/1/?t=1700000000000"])
        #expect(transport.url?.absoluteString == "ws://127.0.0.1:3010/socket.io/1/websocket/sid1")
        #expect(
            transport.headers == [
                HTTPField(name: "Origin", value: "http://127.0.0.1:3010"),
                HTTPField(name: "User-Agent", value: BmobUserAgent.product),
            ])
        #expect(!event.isConnected)
        #expect(transport.sent.isEmpty)

        transport.serverSends("1::")
        #expect(event.isConnected)
        #expect(transport.sent.isEmpty)
        transport.serverSends(Self.ready)
        let sent = try await waitUntil(timeout: 5, "subscriptions") { transport.sent.count == 2 ? transport.sent : nil }
        #expect(sent[0].contains(#"\"action\":\"updateTable\""#) && sent[0].hasPrefix(#"5:::{"name":"client_sub""#))
        #expect(sent[1].contains(#"\"action\":\"deleteRow\""#) && sent[1].contains(#"\"objectId\":\"r1\""#))
        #expect(sent.allSatisfy { $0.contains(#"\"appKey\":\"fake-app\""#) })

        transport.serverSends("2::")
        #expect(transport.sent.last == "2::")
        event.disconnect()
        #expect(!event.isConnected)
        #expect(transport.sent.last == "0::")
        #expect(transport.closedWith == .normalClosure)
    }

    @Test("several streams and the delegate receive every message; cancelling one consumer leaves the rest")
    @MainActor
    func streamsAndDelegate() async throws {
        let server = FakeRealtimeServer()
        let event = BmobEvent(environment: server.environment())
        let delegate = RecordingDelegate()
        event.delegate = delegate
        let first = StreamCollector(event.eventStream())
        let second = StreamCollector(event.eventStream())
        let third = StreamCollector(event.eventStream())
        event.listenTableChange(.updateTable, tableName: "Chat")
        event.connect()
        let transport = try await server.transport(0)
        transport.serverSends("1::")
        transport.serverSends(Self.ready)
        transport.serverSends(Self.publication("Chat", "updateTable", data: ["objectId": "a", "n": 1]))
        _ = try await first.waitForMessages(1)
        _ = try await second.waitForMessages(1)
        _ = try await third.waitForMessages(1)

        third.task.cancel()
        try await third.waitForEnd()
        transport.serverSends(Self.publication("Chat", "updateTable", data: ["objectId": "b", "n": 2]))
        #expect(try await first.waitForMessages(2).map(\.objectId) == ["a", "b"])
        #expect(try await second.waitForMessages(2).map(\.objectId) == ["a", "b"])
        #expect(third.messages.map(\.objectId) == ["a"])
        #expect(event.isConnected)
        #expect(!transport.closed)

        _ = try await waitUntil(timeout: 5, "delegate messages") { delegate.messages.count == 2 ? true : nil }
        #expect(delegate.calls.prefix(2) == [.connected, .ready])
        #expect(delegate.messages.map(\.objectId) == ["a", "b"])
        #expect(delegate.offMainQueue == 0)
        event.disconnect()
    }

    @Test("an unexpected drop reconnects after the delay and resends what is still registered, streams open")
    @MainActor
    func reconnects() async throws {
        let server = FakeRealtimeServer()
        let event = BmobEvent(environment: server.environment(reconnectDelay: .milliseconds(100)))
        let delegate = RecordingDelegate()
        event.delegate = delegate
        let stream = StreamCollector(event.eventStream())
        event.listenTableChange(className: "Chat")
        event.listenRowChange(className: "Chat", objectId: "r1")
        event.connect()
        let first = try await server.transport(0)
        first.serverSends("1::")
        first.serverSends(Self.ready)
        first.serverSends(Self.publication("Chat", "updateTable", data: ["objectId": "a"]))
        _ = try await stream.waitForMessages(1)

        first.drop()
        #expect(!event.isConnected)
        event.cancelListenRowChange(className: "Chat", objectId: "r1")
        let second = try await server.transport(1)
        #expect(second.url?.absoluteString == "ws://127.0.0.1:3010/socket.io/1/websocket/sid2")
        second.serverSends("1::")
        second.serverSends(Self.ready)
        let resent = try await waitUntil(timeout: 5, "resent subscriptions") { second.sent.isEmpty ? nil : second.sent }
        #expect(resent.count == 1)
        #expect(resent[0].contains(#"\"action\":\"updateTable\""#))
        // The old connection is gone: its late messages are ignored.
        first.serverSends(Self.publication("Chat", "updateTable", data: ["objectId": "late"]))
        second.serverSends(Self.publication("Chat", "updateTable", data: ["objectId": "b"]))
        #expect(try await stream.waitForMessages(2).map(\.objectId) == ["a", "b"])
        #expect(!stream.hasEnded)
        _ = try await waitUntil(timeout: 5, "delegate calls") { delegate.messages.count == 2 ? true : nil }
        let disconnects = delegate.calls.filter { if case .disconnected(let error) = $0 { error != nil } else { false } }
        #expect(disconnects.count == 1)
        #expect(delegate.calls.filter { $0 == .connected }.count == 2)
        event.disconnect()
    }

    @Test("disconnect ends every stream and keeps subscriptions; a new stream and connect work again")
    func disconnectAndResume() async throws {
        let server = FakeRealtimeServer()
        let event = BmobEvent(environment: server.environment())
        let before = StreamCollector(event.eventStream())
        event.listenTableChange(className: "Chat")
        event.connect()
        let first = try await server.transport(0)
        first.serverSends("1::")
        first.serverSends(Self.ready)
        event.disconnect()
        event.stop()
        try await before.waitForEnd()

        let after = StreamCollector(event.eventStream())
        event.connect()
        let second = try await server.transport(1)
        second.serverSends("1::")
        second.serverSends(Self.ready)
        _ = try await waitUntil(timeout: 5, "subscription") { second.sent.isEmpty ? nil : true }
        second.serverSends(Self.publication("Chat", "updateTable", data: ["objectId": "c"]))
        #expect(try await after.waitForMessages(1).map(\.objectId) == ["c"])
        #expect(before.messages.isEmpty)
        event.disconnect()
        try await after.waitForEnd()
    }

    @Test("connect before initialize reports notInitialized and retries until the app is initialized")
    @MainActor
    func notInitialized() async throws {
        let server = FakeRealtimeServer(initialized: false)
        let event = BmobEvent(environment: server.environment(reconnectDelay: .milliseconds(50)))
        let delegate = RecordingDelegate()
        event.delegate = delegate
        event.connect()
        _ = try await waitUntil(timeout: 5, "a failure") { delegate.calls.isEmpty ? nil : true }
        #expect(delegate.calls.first == .failed(String(describing: BmobError.notInitialized)))
        #expect(server.transports.isEmpty)
        server.initialize()
        let transport = try await server.transport(0)
        transport.serverSends("1::")
        #expect(event.isConnected)
        event.disconnect()
    }

    @Test("invalid listen calls are reported as invalidParameter and ignored")
    @MainActor
    func invalidListens() async throws {
        let server = FakeRealtimeServer()
        let event = BmobEvent(environment: server.environment())
        let delegate = RecordingDelegate()
        event.delegate = delegate
        event.listenTableChange(.updateRow, tableName: "Chat")
        event.listenRowChange(.updateTable, tableName: "Chat", objectId: "x")
        event.listenTableChange(className: "")
        event.listenRowChange(.deleteRow, tableName: "Chat", objectId: "")
        _ = try await waitUntil(timeout: 5, "four failures") { delegate.calls.count == 4 ? true : nil }
        #expect(delegate.calls.allSatisfy { if case .failed(let text) = $0 { text.contains("invalid parameter") } else { false } })
        #expect(event.subscriptions.isEmpty)
    }

    @Test("releasing the event closes its connection")
    func releaseCloses() async throws {
        let server = FakeRealtimeServer()
        var event: BmobEvent? = BmobEvent(environment: server.environment())
        event?.connect()
        let transport = try await server.transport(0)
        transport.serverSends("1::")
        #expect(event?.isConnected == true)
        event = nil
        _ = try await waitUntil(timeout: 5, "close") { transport.closed ? true : nil }
        #expect(transport.closedWith == .goingAway)
    }
}
