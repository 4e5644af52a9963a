import BmobServer
import BmobTesting
import BmobWire
import Testing

/// The gateway against an independent WebSocket implementation (Python's `websockets`), as a real client.
@Suite struct SocketIOPeerTests {
    @Test func anIndependentClientSubscribesReceivesAndClosesCleanly() async throws {
        try await withTestServer { server in
            let output = try await PythonPeer.run(
                "socketio_server_peer.py", [server.baseURL, TestServer.applicationId, TestServer.restKey])
            let report = try JSONParser.parse(output)
            #expect(try SocketIOHandshake(parsing: report["handshake"]?.stringValue ?? "").supportsWebSocket)
            #expect(report["first"] == "1::")
            #expect(report["second"]?.stringValue == BmobRealtimeEventName.readyPacket.encoded)
            #expect(report["ack"] == "6:::1")
            let event = try BmobRealtimePublication(packet: SocketIOPacket(decoding: report["event"]?.stringValue ?? ""))
            #expect(event.action == .updateTable)
            #expect(event.tableName == "PeerChat")
            #expect(event.objectId == report["createdId"]?.stringValue)
            #expect(event.data?["content"] == "héllo")
            #expect(report["pong"] == true)
            #expect(report["clientCloseCode"] == 1000)
            #expect(report["serverCloseCode"] == 1000)
        }
    }
}
