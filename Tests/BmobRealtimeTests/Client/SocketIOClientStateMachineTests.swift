import BmobRealtime
import BmobWire
import Testing

/// The socket.io client state machine on its own: events in, actions out, no sockets.
@Suite("socket.io client state machine")
struct SocketIOClientStateMachineTests {
    static let appKey = "app-key-1"
    static let ready = BmobRealtimeEventName.readyPacket.encoded
    let chat = BmobEventSubscription(tableName: "Chat", action: .updateTable)
    let chatDeletes = BmobEventSubscription(tableName: "Chat", action: .deleteTable)
    let row = BmobEventSubscription(tableName: "Post", action: .deleteRow, objectId: "row-1")

    /// A machine that went through handshake, open, `1::` and ready for attempt 1.
    func readyMachine(_ subscriptions: [BmobEventSubscription] = []) -> SocketIOClientStateMachine {
        var machine = SocketIOClientStateMachine()
        for subscription in subscriptions { _ = machine.listen(subscription) }
        _ = machine.connectRequested()
        _ = machine.handshakeSucceeded(attempt: 1, handshake: Self.handshake(), appKey: Self.appKey)
        _ = machine.webSocketOpened(attempt: 1)
        _ = machine.textReceived(attempt: 1, "1::")
        _ = machine.textReceived(attempt: 1, Self.ready)
        return machine
    }

    static func handshake(transports: [String] = ["websocket"], heartbeat: Int? = 60) -> SocketIOHandshake {
        SocketIOHandshake(sid: "sid1", heartbeatTimeout: heartbeat, closeTimeout: 60, transports: transports)
    }

    static func publication(_ table: String, _ action: String, objectId: String = "", data: [String: JSONValue]) -> String {
        BmobRealtimePublication(rawValue: [
            "appKey": .string(appKey), "tableName": .string(table), "objectId": .string(objectId),
            "action": .string(action), "data": .object(data),
        ]).packet().encoded
    }

    @Test("connect: handshake, WebSocket, 1:: (connected), client_send_data (ready, subscriptions sent once, in order)")
    func connectFlow() {
        var machine = SocketIOClientStateMachine()
        #expect(machine.listen(chat).isEmpty)
        #expect(machine.listen(row).isEmpty)
        #expect(machine.listen(chat).isEmpty)  // a duplicate
        #expect(machine.subscriptions == [chat, row])

        #expect(machine.connectRequested() == [.startHandshake(attempt: 1)])
        #expect(machine.connectRequested().isEmpty)  // already under way
        #expect(machine.state == .handshaking(attempt: 1))
        #expect(
            machine.handshakeSucceeded(attempt: 1, handshake: Self.handshake(), appKey: Self.appKey)
                == [.openWebSocket(attempt: 1, sid: "sid1")])
        #expect(machine.webSocketOpened(attempt: 1) == [.startHeartbeatWatchdog(attempt: 1, interval: .seconds(60))])
        #expect(!machine.isConnected)
        #expect(machine.textReceived(attempt: 1, "1::") == [.notifyConnected])
        #expect(machine.isConnected)
        #expect(machine.state == .connected(attempt: 1))
        let actions = machine.textReceived(attempt: 1, Self.ready)
        #expect(
            actions == [
                .notifyReady,
                .send(attempt: 1, [chat.subscribePacket(appKey: Self.appKey), row.subscribePacket(appKey: Self.appKey)]),
            ])
        #expect(machine.state == .ready(attempt: 1))
        // The wire form of the first subscription, as the seed's servers expect it.
        guard case .send(_, let packets) = actions[1] else { return }
        #expect(
            packets[0].clientText
                == #"5:::{"name":"client_sub","args":["{\"action\":\"updateTable\",\"appKey\":\"app-key-1\",\"objectId\":\"\",\"tableName\":\"Chat\"}"]}"#)
        // A second ready event does not resend.
        #expect(machine.textReceived(attempt: 1, Self.ready).isEmpty)
    }

    @Test("no subscriptions: ready sends nothing; a server that skips 1:: is connected by its ready event")
    func readyWithoutSubscriptions() {
        var machine = SocketIOClientStateMachine()
        _ = machine.connectRequested()
        _ = machine.handshakeSucceeded(attempt: 1, handshake: Self.handshake(heartbeat: nil), appKey: Self.appKey)
        #expect(machine.webSocketOpened(attempt: 1).isEmpty)  // no heartbeat timeout, no watchdog
        #expect(machine.textReceived(attempt: 1, Self.ready) == [.notifyConnected, .notifyReady])
        #expect(machine.isConnected)
    }

    @Test("packets that arrive before the WebSocket's open is reported open it first")
    func earlyPackets() {
        var machine = SocketIOClientStateMachine()
        _ = machine.listen(chat)
        _ = machine.connectRequested()
        _ = machine.handshakeSucceeded(attempt: 1, handshake: Self.handshake(), appKey: Self.appKey)
        let batch = SocketIOFrameBatch.join(["1::", Self.ready])
        #expect(
            machine.textReceived(attempt: 1, batch) == [
                .startHeartbeatWatchdog(attempt: 1, interval: .seconds(60)), .notifyConnected, .notifyReady,
                .send(attempt: 1, [chat.subscribePacket(appKey: Self.appKey)]),
            ])
        #expect(machine.webSocketOpened(attempt: 1).isEmpty)  // the late report changes nothing
    }

    @Test("heartbeats are echoed as 2::, alone or in a batch")
    func heartbeats() {
        var machine = readyMachine()
        #expect(machine.textReceived(attempt: 1, "2::") == [.send(attempt: 1, [.heartbeat])])
        #expect(machine.textReceived(attempt: 1, "2:::") == [.send(attempt: 1, [.heartbeat])])
        #expect(
            machine.textReceived(attempt: 1, SocketIOFrameBatch.join(["2::", "8::", "2::"]))
                == [.send(attempt: 1, [.heartbeat]), .send(attempt: 1, [.heartbeat])])
        #expect(SocketIOPacket.heartbeat.clientText == "2::")
    }

    @Test("server_pub for a subscription becomes a message; others are dropped")
    func publications() throws {
        var machine = readyMachine([chat, row])
        let text = Self.publication("Chat", "updateTable", data: ["objectId": "abc", "name": "Tom", "n": 3])
        let actions = machine.textReceived(attempt: 1, text)
        guard actions.count == 1, case .deliver(let message) = actions[0] else {
            Issue.record("expected one message, got \(actions)")
            return
        }
        #expect(message.action == "updateTable")
        #expect(message.className == "Chat")
        #expect(message.objectId == "abc")  // from data, the top-level one being empty
        #expect(message.data?["name"] as? String == "Tom")
        #expect(message.data?["n"] as? Int == 3)
        #expect(message.rawValue["appKey"] as? String == Self.appKey)

        let rowDelete = Self.publication("Post", "deleteRow", objectId: "row-1", data: ["objectId": "row-1"])
        #expect(machine.textReceived(attempt: 1, rowDelete).count == 1)
        // Another row, another table, another action, an unknown event: nothing.
        #expect(machine.textReceived(attempt: 1, Self.publication("Post", "deleteRow", objectId: "row-2", data: [:])).isEmpty)
        #expect(machine.textReceived(attempt: 1, Self.publication("Other", "updateTable", data: [:])).isEmpty)
        #expect(machine.textReceived(attempt: 1, Self.publication("Chat", "deleteTable", data: [:])).isEmpty)
        #expect(machine.textReceived(attempt: 1, SocketIOPacket.event("something_else", []).encoded).isEmpty)
        // A server that names the table className still matches.
        let classNamed = SocketIOPacket.event(
            "server_pub", [.string(#"{"className":"Chat","action":"updateTable","data":{"objectId":"x"}}"#)]
        ).encoded
        #expect(machine.textReceived(attempt: 1, classNamed).count == 1)
    }

    @Test("listen while ready sends at once; cancel sends the unsub_* form under client_unsub; unknown cancels do nothing")
    func subscribeAndCancelWhileReady() {
        var machine = readyMachine([chat])
        #expect(machine.listen(chatDeletes) == [.send(attempt: 1, [chatDeletes.subscribePacket(appKey: Self.appKey)])])
        #expect(machine.listen(chatDeletes).isEmpty)
        let cancel = machine.cancel(chat)
        #expect(cancel == [.send(attempt: 1, [chat.unsubscribePacket(appKey: Self.appKey)])])
        guard case .send(_, let packets) = cancel.first else { return }
        #expect(
            packets[0].clientText
                == #"5:::{"name":"client_unsub","args":["{\"action\":\"unsub_updateTable\",\"appKey\":\"app-key-1\",\"objectId\":\"\",\"tableName\":\"Chat\"}"]}"#)
        #expect(machine.cancel(chat).isEmpty)
        #expect(machine.cancel(row).isEmpty)
        #expect(machine.subscriptions == [chatDeletes])
        // After cancelling, its changes are no longer delivered.
        #expect(machine.textReceived(attempt: 1, Self.publication("Chat", "updateTable", data: [:])).isEmpty)

        // Row cancels use unsub_deleteRow with the objectId.
        _ = machine.listen(row)
        guard case .send(_, let rowPackets)? = machine.cancel(row).first,
            case .event(_, let args) = rowPackets[0].payload
        else {
            Issue.record("expected an unsubscribe packet")
            return
        }
        #expect(args.first?.stringValue?.contains(#""action":"unsub_deleteRow""#) == true)
        #expect(args.first?.stringValue?.contains(#""objectId":"row-1""#) == true)
    }

    @Test("a dropped connection reconnects after the delay and resends the subscriptions still registered")
    func reconnect() {
        var machine = readyMachine([chat, row])
        #expect(
            machine.webSocketClosed(attempt: 1, failure: .connectionClosed(code: 1006, reason: "gone")) == [
                .notifyDisconnected(.connectionClosed(code: 1006, reason: "gone")),
                .scheduleReconnect(attempt: 1, delay: .seconds(5)),
            ])
        #expect(!machine.isConnected)
        #expect(machine.state == .waitingToReconnect(attempt: 1))
        // Cancelled while disconnected: not resent later, and nothing to send now.
        #expect(machine.cancel(row).isEmpty)
        // Late events of the old connection are ignored.
        #expect(machine.textReceived(attempt: 1, Self.publication("Chat", "updateTable", data: [:])).isEmpty)
        #expect(machine.reconnectTimerFired(attempt: 7).isEmpty)

        #expect(machine.reconnectTimerFired(attempt: 1) == [.startHandshake(attempt: 2)])
        #expect(machine.handshakeFailed(attempt: 1, failure: .timedOut).isEmpty)  // stale
        #expect(
            machine.handshakeFailed(attempt: 2, failure: .handshakeFailed("HTTP status 502")) == [
                .notifyFailure(.handshakeFailed("HTTP status 502")), .scheduleReconnect(attempt: 2, delay: .seconds(5)),
            ])
        #expect(machine.reconnectTimerFired(attempt: 2) == [.startHandshake(attempt: 3)])
        _ = machine.handshakeSucceeded(attempt: 3, handshake: Self.handshake(), appKey: Self.appKey)
        _ = machine.webSocketOpened(attempt: 3)
        #expect(machine.textReceived(attempt: 3, "1::") == [.notifyConnected])
        #expect(
            machine.textReceived(attempt: 3, Self.ready)
                == [.notifyReady, .send(attempt: 3, [chat.subscribePacket(appKey: Self.appKey)])])
    }

    @Test("disconnect: 0:: and close, streams finished, subscriptions kept; connect again starts a new attempt")
    func disconnect() {
        var machine = readyMachine([chat])
        #expect(
            machine.disconnectRequested() == [
                .send(attempt: 1, [.disconnect]), .closeWebSocket(attempt: 1), .notifyDisconnected(nil), .finishStreams,
            ])
        #expect(machine.state == .idle)
        #expect(machine.subscriptions == [chat])
        #expect(machine.webSocketClosed(attempt: 1, failure: .connectionClosed(code: 1000, reason: "")).isEmpty)
        #expect(machine.disconnectRequested() == [.finishStreams])
        #expect(machine.connectRequested() == [.startHandshake(attempt: 2)])
        // Disconnecting during the handshake or while opening.
        #expect(machine.disconnectRequested() == [.finishStreams])
        #expect(machine.handshakeSucceeded(attempt: 2, handshake: Self.handshake(), appKey: Self.appKey).isEmpty)
        _ = machine.connectRequested()
        _ = machine.handshakeSucceeded(attempt: 3, handshake: Self.handshake(), appKey: Self.appKey)
        #expect(machine.disconnectRequested() == [.closeWebSocket(attempt: 3), .finishStreams])
        #expect(machine.webSocketOpened(attempt: 3).isEmpty)
    }

    @Test("without autoReconnect a failure ends the streams and stops")
    func noAutoReconnect() {
        var machine = SocketIOClientStateMachine()
        machine.autoReconnect = false
        _ = machine.connectRequested()
        #expect(
            machine.handshakeSucceeded(attempt: 1, handshake: Self.handshake(transports: ["xhr-polling"]), appKey: Self.appKey)
                == [.notifyFailure(.noWebSocketTransport), .finishStreams])
        #expect(machine.state == .idle)
        _ = machine.connectRequested()
        _ = machine.handshakeSucceeded(attempt: 2, handshake: Self.handshake(), appKey: Self.appKey)
        #expect(
            machine.webSocketOpenFailed(attempt: 2, failure: .webSocketFailed("refused"))
                == [.notifyFailure(.webSocketFailed("refused")), .finishStreams])

        // Turned off while waiting to reconnect: the timer stops instead of reconnecting.
        var waiting = readyMachine()
        _ = waiting.webSocketClosed(attempt: 1, failure: .connectionClosed(code: 1006, reason: ""))
        waiting.autoReconnect = false
        #expect(waiting.reconnectTimerFired(attempt: 1) == [.finishStreams])
        #expect(waiting.state == .idle)
    }

    @Test("the heartbeat watchdog drops a silent connection")
    func heartbeatWatchdog() {
        var machine = readyMachine([chat])
        #expect(machine.heartbeatCheckDue(attempt: 1).isEmpty)  // packets arrived since the start
        #expect(
            machine.heartbeatCheckDue(attempt: 1) == [
                .closeWebSocket(attempt: 1), .notifyDisconnected(.heartbeatTimeout), .scheduleReconnect(attempt: 1, delay: .seconds(5)),
            ])
        #expect(machine.heartbeatCheckDue(attempt: 1).isEmpty)  // the attempt is over
        var alive = readyMachine()
        _ = alive.heartbeatCheckDue(attempt: 1)
        _ = alive.textReceived(attempt: 1, "2::")
        #expect(alive.heartbeatCheckDue(attempt: 1).isEmpty)
    }

    @Test("server 0:: and 7:: with reconnect advice end the connection; other errors and bad packets are reported")
    func serverPackets() {
        var machine = readyMachine()
        #expect(
            machine.textReceived(attempt: 1, "7:::unauthorized") == [.notifyFailure(.serverError("unauthorized"))])
        #expect(machine.isConnected)
        let bad = machine.textReceived(attempt: 1, "9:::nonsense")
        guard case .notifyFailure(.invalidPacket)? = bad.first, bad.count == 1 else {
            Issue.record("expected an invalid packet failure, got \(bad)")
            return
        }
        #expect(
            machine.textReceived(attempt: 1, "7:::client not handshaken+0") == [
                .closeWebSocket(attempt: 1), .notifyDisconnected(.serverError("client not handshaken")),
                .scheduleReconnect(attempt: 1, delay: .seconds(5)),
            ])
        var other = readyMachine()
        #expect(
            other.textReceived(attempt: 1, "0::") == [
                .closeWebSocket(attempt: 1), .notifyDisconnected(.serverDisconnected), .scheduleReconnect(attempt: 1, delay: .seconds(5)),
            ])
        // Packets after the disconnect packet in the same batch are ignored.
        var batched = readyMachine([chat])
        let actions = batched.textReceived(
            attempt: 1, SocketIOFrameBatch.join(["0::", Self.publication("Chat", "updateTable", data: [:])]))
        #expect(!actions.contains { if case .deliver = $0 { true } else { false } })
    }

    @Test("subscriptions drop the objectId of table actions; matching needs the same row for row actions")
    func subscriptionValues() throws {
        #expect(BmobEventSubscription(tableName: "T", action: .updateTable, objectId: "x").objectId == "")
        let publication = try BmobRealtimePublication(
            eventName: "server_pub", args: [.string(#"{"tableName":"Post","objectId":"row-1","action":"deleteRow"}"#)])
        #expect(row.matches(publication))
        #expect(!BmobEventSubscription(tableName: "Post", action: .deleteRow, objectId: "row-2").matches(publication))
        #expect(!BmobEventSubscription(tableName: "Post", action: .updateRow, objectId: "row-1").matches(publication))
    }
}
