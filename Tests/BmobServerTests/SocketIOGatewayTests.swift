import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// The socket.io 0.9 realtime gateway against a live in-process server: handshake, session ids,
/// subscriptions, events from the journal, permissions, heartbeats and errors.
@Suite struct SocketIOGatewayTests {
    @Test func handshakeAnswersSidTimeoutsAndWebSocket() async throws {
        try await withTestServer { server in
            let response = try await server.request("GET", "/socket.io/1/?t=1700000000000", headers: [("Origin", "http://io.bmob.cn")])
            #expect(response.status == 200)
            let answer = try SocketIOHandshake(parsing: response.text)
            #expect(answer.heartbeatTimeout == 60)
            #expect(answer.closeTimeout == 60)
            #expect(answer.transports == ["websocket"])
            // Any origin, never with credentials: subscribers are anonymous.
            #expect(response.headers["Access-Control-Allow-Origin"] == "*")
            #expect(response.headers["Access-Control-Allow-Credentials"] == nil)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            let again = try await server.request("GET", "/socket.io/1")
            #expect(try SocketIOHandshake(parsing: again.text).sid != answer.sid)
        }
    }

    @Test func sessionIdsAreSingleUseAndUnknownOnesRefused() async throws {
        try await withTestServer { server in
            let client = try await SocketIOTestClient.connect(server)
            for sid in [client.sid, "neverIssued123"] {
                do {
                    _ = try await TestWebSocket.connect(port: server.port, path: "/socket.io/1/websocket/\(sid)")
                    Issue.record("sid \(sid) was accepted")
                } catch TestWebSocketError.refused(let response) {
                    #expect(response.status == 403)
                    #expect(response.json?["code"]?.int64Value == 403)
                    #expect(response.json?["error"]?.stringValue?.contains("session id") == true)
                }
            }
            // A plain GET to the WebSocket path is not an upgrade: 400 in Bmob's error shape.
            let plain = try await server.request("GET", "/socket.io/1/websocket/abc")
            #expect(plain.status == 400)
            #expect(plain.json?["code"]?.int64Value == 400)
            // Polling transports are not served.
            #expect(try await server.request("GET", "/socket.io/1/xhr-polling/abc").status == 404)
        }
    }

    @Test func tableSubscriptionsGetCreatesAndUpdates() async throws {
        try await withTestServer { server in
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Chat", .updateTable)
            let id = try await server.create("Chat", ["name": "bmob", "content": "hello"])
            let created = try await client.nextEvent()
            #expect(created.action == .updateTable)
            #expect(created.tableName == "Chat")
            #expect(created.appKey == TestServer.applicationId)
            #expect(created.rawValue["objectId"] == "")
            #expect(created.objectId == id)
            #expect(created.data?["name"] == "bmob")
            #expect(created.data?["content"] == "hello")
            #expect(created.data?["createdAt"]?.stringValue?.count == 19)
            let update = try await server.call("PUT", "/1/classes/Chat/\(id)", json: ["content": "changed"])
            #expect(update.status == 200)
            let updated = try await client.nextEvent()
            #expect(updated.action == .updateTable)
            #expect(updated.data?["content"] == "changed")
            #expect(updated.data?["name"] == "bmob")
            // Deleting is not a table update.
            #expect(try await server.call("DELETE", "/1/classes/Chat/\(id)").status == 200)
            #expect(try await client.expectSilence() == nil)
        }
    }

    @Test func rowSubscriptionsFollowOneObjectToItsDeletion() async throws {
        try await withTestServer { server in
            let watched = try await server.create("Post", ["title": "watched"])
            let other = try await server.create("Post", ["title": "other"])
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Post", .updateRow, objectId: watched)
            try await client.subscribe("Post", .deleteRow, objectId: watched)
            _ = try await server.call("PUT", "/1/classes/Post/\(other)", json: ["title": "ignored"])
            _ = try await server.call("PUT", "/1/classes/Post/\(watched)", json: ["title": "seen"])
            let updated = try await client.nextEvent()
            #expect(updated.action == .updateRow)
            #expect(updated.rawValue["objectId"]?.stringValue == watched)
            #expect(updated.data?["title"] == "seen")
            _ = try await server.call("DELETE", "/1/classes/Post/\(other)")
            _ = try await server.call("DELETE", "/1/classes/Post/\(watched)")
            let deleted = try await client.nextEvent()
            #expect(deleted.action == .deleteRow)
            #expect(deleted.objectId == watched)
            #expect(deleted.data?["title"] == "seen")
            #expect(try await client.expectSilence() == nil)
        }
    }

    @Test func droppingAClassSendsDeleteTable() async throws {
        try await withTestServer { server in
            let id = try await server.create("Temp", ["n": 1])
            _ = try await server.call("DELETE", "/1/classes/Temp/\(id)")
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Temp", .deleteTable)
            let dropped = try await server.call("DELETE", "/1/schemas/Temp", master: true)
            #expect(dropped.status == 200)
            let event = try await client.nextEvent()
            #expect(event.action == .deleteTable)
            #expect(event.tableName == "Temp")
        }
    }

    @Test(arguments: ["client_unsub", "client_sub"])
    func unsubscribingStopsEvents(eventName: String) async throws {
        try await withTestServer { server in
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Note", .updateTable)
            try await client.subscribe("Note", .updateTable)  // a duplicate is one subscription
            _ = try await server.create("Note", ["n": 1])
            #expect(try await client.nextEvent().data?["n"] == 1)
            #expect(try await client.expectSilence(milliseconds: 150) == nil)
            let argument = JSONValue.object([
                "appKey": .string(TestServer.applicationId), "tableName": "Note", "objectId": "",
                "action": "unsub_updateTable",
            ])
            try await client.sendAcknowledged(eventName, argument)
            _ = try await server.create("Note", ["n": 2])
            #expect(try await client.expectSilence() == nil)
        }
    }

    @Test func everySubscriberOnEveryConnectionGetsTheEvent() async throws {
        try await withTestServer { server in
            var clients: [SocketIOTestClient] = []
            for _ in 0..<6 {
                let client = try await SocketIOTestClient.connect(server)
                try await client.subscribe("Fan", .updateTable)
                clients.append(client)
            }
            // A batch of creates, through /1/batch: every event reaches every client, in commit order.
            let requests: [JSONValue] = (0..<3).map { ["method": "POST", "path": "/1/classes/Fan", "body": ["i": .int(Int64($0))]] }
            #expect(try await server.call("POST", "/1/batch", json: ["requests": .array(requests)]).status == 200)
            for client in clients {
                for expected in 0..<3 {
                    #expect(try await client.nextEvent().data?["i"]?.int64Value == Int64(expected))
                }
            }
        }
    }

    @Test func eventsOfSeveralKeysOnOneConnectionKeepCommitOrder() async throws {
        try await withTestServer { server in
            let watched = try await server.create("Chat", ["n": 0])
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Chat", .updateTable)
            try await client.subscribe("Chat", .updateRow, objectId: watched)
            try await client.subscribe("Chat", .deleteRow, objectId: watched)
            // One batch commits together, so its events reach the connection's loop together: table and row
            // events interleave, and runs of table events may be joined into one write.
            let requests: [JSONValue] = [
                ["method": "PUT", "path": .string("/1/classes/Chat/\(watched)"), "body": ["n": 1]],
                ["method": "POST", "path": "/1/classes/Chat", "body": ["n": 2]],
                ["method": "POST", "path": "/1/classes/Chat", "body": ["n": 3]],
                ["method": "DELETE", "path": .string("/1/classes/Chat/\(watched)")],
                ["method": "POST", "path": "/1/classes/Chat", "body": ["n": 4]],
            ]
            #expect(try await server.call("POST", "/1/batch", json: ["requests": .array(requests)]).status == 200)
            var seen: [String] = []
            for _ in 0..<6 {
                let event = try await client.nextEvent()
                seen.append("\(event.action?.rawValue ?? "-") \(event.data?["n"]?.int64Value.map(String.init) ?? "-")")
            }
            #expect(seen == ["updateTable 1", "updateRow 1", "updateTable 2", "updateTable 3", "deleteRow 1", "updateTable 4"])
            #expect(try await client.expectSilence() == nil)
        }
    }

    @Test func serverSidePublicationsTakeTheSamePathAsJournalEvents() async throws {
        try await withTestServer { server in
            let watched = try await server.create("Chat", ["n": 0])
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Chat", .updateTable)
            try await client.subscribe("Chat", .updateRow, objectId: watched)
            let gateway = server.server.socketIO
            let announcement = BmobRealtimePublication(
                appKey: TestServer.applicationId, tableName: "Chat", objectId: "", action: .updateTable,
                data: ["objectId": "server", "text": "from the server"])
            #expect(gateway.publish(announcement))
            // Nobody listens to these topics: another table, another object, another app.
            #expect(!gateway.publish(BmobRealtimePublication(
                appKey: TestServer.applicationId, tableName: "Post", objectId: "", action: .updateTable, data: [:])))
            #expect(!gateway.publish(BmobRealtimePublication(
                appKey: TestServer.applicationId, tableName: "Chat", objectId: "other", action: .updateRow, data: [:])))
            #expect(!gateway.publish(BmobRealtimePublication(
                appKey: "someotherapp", tableName: "Chat", objectId: "", action: .updateTable, data: [:])))
            #expect(gateway.publish(BmobRealtimePublication(
                appKey: TestServer.applicationId, tableName: "Chat", objectId: watched, action: .updateRow,
                data: ["objectId": .string(watched), "n": 10])))
            // A write after the publications: its events come after them, on the same connection.
            _ = try await server.call("PUT", "/1/classes/Chat/\(watched)", json: ["n": 1])

            let first = try await client.nextEvent()
            #expect(first.rawValue == announcement.rawValue)
            let row = try await client.nextEvent()
            #expect(row.action == .updateRow && row.objectId == watched && row.data?["n"] == 10)
            let table = try await client.nextEvent()
            #expect(table.action == .updateTable && table.data?["n"] == 1)
            let update = try await client.nextEvent()
            #expect(update.action == .updateRow && update.data?["n"] == 1)
            #expect(try await client.expectSilence() == nil)
        }
    }

    @Test func rowsThePublicCannotReadAreNotSent() async throws {
        try await withTestServer { server in
            let (userId, _) = try await server.signUpUser("owner", password: "secret-1")
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Diary", .updateTable)
            _ = try await server.create("Diary", ["text": "private", "ACL": .object([userId: ["read": true, "write": true]])])
            _ = try await server.create("Diary", ["text": "public", "ACL": ["*": ["read": true]]])
            let event = try await client.nextEvent()
            #expect(event.data?["text"] == "public")
            #expect(try await client.expectSilence() == nil)
        }
    }

    @Test func classPermissionsThatCloseFindToThePublicSilenceTableEvents() async throws {
        try await withTestServer { server in
            _ = try await server.create("Ledger", ["amount": 1])
            let closed = try await server.call(
                "PUT", "/1/schemas/Ledger", json: ["classLevelPermissions": ["find": ["requiresAuthentication": true]]],
                master: true)
            #expect(closed.status == 200)
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Ledger", .updateTable)
            _ = try await server.call("POST", "/1/classes/Ledger", json: ["amount": 2], master: true)
            #expect(try await client.expectSilence() == nil)
        }
    }

    @Test func theIgnoreACLSettingRestoresBmobCloudBehaviour() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmob-rt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The setting is edited in apps.json, so this server keeps its apps in the file whatever the engine.
        var server = try await TestServer.start(dataDirectory: folder) { $0.storage = .sqlite() }
        await server.stop()
        let registry = folder.appendingPathComponent("apps.json")
        guard case .object(var root) = try JSONParser.parse(String(contentsOf: registry, encoding: .utf8)),
            case .array(var list) = root["apps"], case .object(var app) = list.first
        else { throw TestFailure("unexpected apps.json shape") }
        app["realtimeIgnoresACL"] = true
        list[0] = .object(app)
        root["apps"] = .array(list)
        try JSONValue.object(root).jsonString.write(to: registry, atomically: true, encoding: .utf8)
        server = try await TestServer.start(dataDirectory: folder) { $0.storage = .sqlite() }
        do {
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Diary", .updateTable)
            _ = try await server.create("Diary", ["text": "private", "ACL": ["someone": ["read": true]]])
            #expect(try await client.nextEvent().data?["text"] == "private")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func badPacketsGetErrorPacketsAndTheConnectionStaysUsable() async throws {
        try await withTestServer { server in
            let client = try await SocketIOTestClient.connect(server)
            try await client.socket.send(text: "5:::{\"name\":\"client_sub\",\"args\":[\"not json\"]}")
            guard case .error(let reason, _) = try await client.nextPacket()?.payload else {
                Issue.record("no error packet for bad JSON")
                return
            }
            #expect(reason.contains("JSON"))
            try await client.send(BmobRealtimeSubscription(appKey: "no-such-app", tableName: "Chat", action: .updateTable))
            guard case .error(let unknown, _) = try await client.nextPacket()?.payload else {
                Issue.record("no error packet for an unknown app")
                return
            }
            #expect(unknown.contains("appKey"))
            try await client.send(BmobRealtimeSubscription(appKey: TestServer.applicationId, tableName: "bad name!", action: .updateTable))
            guard case .error(let badName, _) = try await client.nextPacket()?.payload else {
                Issue.record("no error packet for a bad table name")
                return
            }
            #expect(badName.contains("tableName"))
            try await client.socket.send(text: "not a packet")
            guard case .error = try await client.nextPacket()?.payload else {
                Issue.record("no error packet for garbage")
                return
            }
            // Still subscribed and working.
            try await client.subscribe("Chat", .updateTable)
            _ = try await server.create("Chat", ["ok": true])
            #expect(try await client.nextEvent().data?["ok"] == true)
        }
    }

    @Test func eventsAskingForAnAckGetOne() async throws {
        try await withTestServer { server in
            let client = try await SocketIOTestClient.connect(server)
            let argument = JSONValue.object([
                "appKey": .string(TestServer.applicationId), "tableName": "Chat", "objectId": "", "action": "updateTable",
            ])
            try await client.socket.send(text: "5:7+::" + JSONValue.object(["name": "client_sub", "args": [.string(argument.jsonString)]]).jsonString)
            guard case .ack(let id, _) = try await client.nextPacket()?.payload else {
                Issue.record("no ack")
                return
            }
            #expect(id == 7)
            // The ack comes after the subscription is applied, so this write is seen.
            _ = try await server.create("Chat", ["acked": true])
            #expect(try await client.nextEvent().data?["acked"] == true)
        }
    }

    @Test func binaryMessagesCloseWith1003AndDisconnectPacketsClose() async throws {
        try await withTestServer { server in
            let binary = try await SocketIOTestClient.connect(server)
            try await binary.socket.send(WebSocketFrame(opcode: .binary, payload: [1, 2, 3]))
            #expect(try await binary.socket.nextClose() == .unsupportedData)
            let leaving = try await SocketIOTestClient.connect(server)
            try await leaving.socket.send(text: "0::")
            #expect(try await leaving.socket.nextClose() == .normalClosure)
        }
    }

    @Test func heartbeatsFlowAndSilentClientsAreDropped() async throws {
        // On a manual clock: heartbeats and the silence timeout happen when the test moves time, not on a timer.
        let clock = ManualClock()
        try await withTestServer(loopClock: .manual(clock), configure: {
            $0.realtimeHeartbeatSeconds = 1
            $0.realtimeTimeoutSeconds = 4
        }) { server in
            let handshake = try SocketIOHandshake(parsing: try await server.request("GET", "/socket.io/1/").text)
            #expect(handshake.heartbeatTimeout == 4)
            let client = try await SocketIOTestClient.connect(server)
            // The server's heartbeat is `2:::`; answering keeps the connection.
            for _ in 0..<3 {
                await clock.advance(by: .seconds(1))
                #expect(try await client.nextPacket(skippingHeartbeats: false) == .heartbeat)
                try await client.socket.send(text: "2::")
            }
            // Three seconds after the last answer the client is still there (heartbeats keep coming)…
            for _ in 0..<3 {
                await clock.advance(by: .seconds(1))
                #expect(try await client.nextPacket(skippingHeartbeats: false) == .heartbeat)
            }
            // …and once it has been silent for longer than the timeout, it is dropped.
            await clock.advance(by: .seconds(2))
            #expect(try await client.socket.nextClose() == .goingAway)
        }
    }
}
