import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Channel webhooks against a receiver that checks them with Pusher's own server library (`validate_webhook`).
@Suite struct PusherWebhookTests {
    /// The receiver: a child process on a free port.
    final class Receiver: Sendable {
        let process: ChildProcess
        let port: Int

        init() throws {
            let channels = TestServer.channels
            (process, port) = try PythonPeer.startListening(
                "pusher_webhook_receiver.py", [channels.appId, channels.key, channels.secret])
        }

        /// Every event received so far, each with whether its call validated.
        func events() async throws -> [(valid: Bool, event: JSONValue)] {
            let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/calls")!)
            var events: [(Bool, JSONValue)] = []
            for call in try JSONParser.parse(Array(data))["calls"]?.arrayValue ?? [] {
                for event in call["events"]?.arrayValue ?? [] { events.append((call["valid"] == true, event)) }
            }
            return events
        }

        func stop() async {
            process.send(SIGKILL)
            _ = await process.waitForExit()
        }
    }

    @Test("occupied, member added, client event, member removed, vacated: each signed as Pusher signs, retried once refused")
    func lifecycle() async throws {
        let receiver = try await withoutBlockingThePool { try Receiver() }
        var channels = TestServer.channels
        channels.clientEvents = true
        channels.webhookURL = "http://127.0.0.1:\(receiver.port)/fail-first"
        let server = try await TestServer.start(channels: channels)
        do {
            let ada = try await PusherTestClient.connect(server)
            let bob = try await PusherTestClient.connect(server)
            _ = try await ada.subscribe("presence-hooked", channelData: #"{"user_id":"ada"}"#)
            _ = try await bob.subscribe("presence-hooked", channelData: #"{"user_id":"bob"}"#)
            _ = try await ada.nextEvent()  // member_added bob
            try await bob.send(["event": "client-wave", "channel": "presence-hooked", "data": ["hi": true]])
            _ = try await ada.nextEvent()
            try await bob.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-hooked"]])
            _ = try await ada.nextEvent()  // member_removed bob
            try await ada.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-hooked"]])

            var received: [(valid: Bool, event: JSONValue)] = []
            _ = try await eventually {
                received = try await receiver.events()
                return received.count >= 7
            }
            let allValid = received.allSatisfy { $0.valid }
            #expect(allValid, "\(received)")
            let names = received.map { "\($0.event["name"]?.stringValue ?? "?") \($0.event["user_id"]?.stringValue ?? "")" }
            #expect(Set(names) == [
                "channel_occupied ", "member_added ada", "member_added bob", "client_event bob", "member_removed bob",
                "member_removed ada", "channel_vacated ",
            ], "\(names)")
            let clientEvent = try #require(received.first { $0.event["name"] == "client_event" }?.event)
            #expect(clientEvent["event"] == "client-wave" && clientEvent["channel"] == "presence-hooked")
            let data = try #require(clientEvent["data"]?.stringValue)
            #expect(try JSONParser.parse(data) == ["hi": true])
            #expect(clientEvent["socket_id"]?.stringValue == bob.socketId)
        } catch {
            await server.stop()
            await receiver.stop()
            throw error
        }
        await server.stop()
        await receiver.stop()
    }
}
