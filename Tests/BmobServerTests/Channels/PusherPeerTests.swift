import BmobServer
import BmobTesting
import BmobWire
import Testing

/// The channels door against independent implementations: pysher (a Pusher WebSocket client speaking protocol
/// 6) authorized by the built-in endpoint, and Pusher's own server library on the HTTP API.
@Suite struct PusherPeerTests {
    @Test func pysherAndPushersServerLibraryWorkAgainstTheServer() async throws {
        try await withTestServer { server in
            let (userId, token) = try await server.signUpUser("py", password: "pw-py")
            let spec: JSONValue = [
                "host": "127.0.0.1", "port": .int(Int64(server.port)), "appId": .string(TestServer.channels.appId),
                "key": .string(TestServer.channels.key), "secret": .string(TestServer.channels.secret),
                "applicationId": .string(TestServer.applicationId), "restKey": .string(TestServer.restKey),
                "sessionToken": .string(token), "userId": .string(userId),
            ]
            let output = try await PythonPeer.run("pusher_channels_peer.py", [spec.jsonString], timeout: 90)
            let report = try JSONParser.parse(output)
            #expect(report["connected"] == true)
            #expect(report["subscribed"] == true, "\(output)")
            #expect(report["presence"]?["count"] == 1 && report["presence"]?["hash"]?["py-b"] == ["name": "B"])
            #expect(report["trigger"] == [:] && report["batch"] == [:])
            #expect(report["received"] == true, "\(output)")
            #expect(report["events"] == [
                "a:news=two", #"a:news={"n": 1}"#, .string(#"a:private-user-\#(userId)={"n": 1}"#),
            ])
            #expect(report["channels"] == ["channels": ["presence-py": ["user_count": 1]]])
            #expect(report["channel"] == ["occupied": true, "user_count": 1, "subscription_count": 1])
            #expect(report["users"] == ["users": [["id": "py-b"]]])
            #expect(report["terminate"] == [:])
        }
    }
}
