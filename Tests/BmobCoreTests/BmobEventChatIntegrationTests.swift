import BmobCore
import BmobRealtime
import Foundation
import Testing

/// The live chat test of the Bmob Swift SDK, against any Bmob-compatible server: Bmob's cloud, or a `bmob serve`
/// (`BMOB_EVENT_CHAT_DOMAIN=http://127.0.0.1:8080`). Initialize, subscribe to `Chat` table updates, create one
/// record with a unique marker through REST, receive its event and check it, then delete the record (a failed
/// cleanup fails the test). Skipped unless `BMOB_EVENT_CHAT_LIVE_TEST=1` and the app's keys are set
/// (``BmobEventChatSettings``); never put real keys in the source or in git.
@Suite("BmobEvent chat against a live server (BMOB_EVENT_CHAT_LIVE_TEST=1)")
struct BmobEventChatIntegrationTests {
    /// How long the server gets to allow subscriptions, and then to deliver the record's event.
    static let patienceSeconds: UInt64 = 30

    @Test(
        "initialize, subscribe Chat.updateTable, create a record through REST, receive its event, delete the record",
        .enabled(
            if: BmobEventChatSettings.current != nil,
            "set BMOB_EVENT_CHAT_LIVE_TEST=1, BMOB_EVENT_APP_KEY and BMOB_EVENT_REST_KEY to run it"),
        .timeLimit(.minutes(2)))
    func chat() async throws {
        let settings = try #require(BmobEventChatSettings.current)
        if let domain = settings.domain { Bmob.resetDomain(domain) }
        try await Bmob.initialize(appKey: settings.appKey)
        if let ioDomain = settings.ioDomain { try await Bmob.resetIODomain(ioDomain) }

        let event = BmobEvent()
        let readiness = ChatReadiness()
        event.delegate = readiness
        let messages = event.eventStream()
        event.listenTableChange(.updateTable, tableName: "Chat")
        event.connect()
        defer { event.disconnect() }

        // The SDK sends the registered subscription when the server allows it; then the server needs a moment to
        // apply it, and the record goes through another connection, so the test waits a second before writing.
        let readyBy = Date().addingTimeInterval(TimeInterval(Self.patienceSeconds))
        while await !readiness.isReady {
            let failures = await readiness.failures
            guard Date() < readyBy else {
                throw ChatFailure("the server did not allow subscriptions within \(Self.patienceSeconds) s \(failures)")
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        try await Task.sleep(nanoseconds: 1_000_000_000)

        let marker = UUID().uuidString
        let name = "bmob-swift-live-" + marker.prefix(8)
        let content = "BmobEventChatIntegrationTests \(marker)"
        let arrival = Task { () -> BmobEventMessage? in
            for await message in messages where message.data?["content"] as? String == content {
                return message
            }
            return nil
        }
        let rest = ChatREST(settings: settings)
        let objectId: String
        do {
            objectId = try await rest.create(["name": name, "content": content])
        } catch {
            arrival.cancel()
            throw error
        }
        // No event by the deadline: disconnecting ends the stream, and the wait answers nil.
        let deadline = Task {
            try await Task.sleep(nanoseconds: Self.patienceSeconds * 1_000_000_000)
            event.disconnect()
        }
        let message = await arrival.value
        deadline.cancel()

        var cleanupFailure: (any Error)?
        do {
            try await rest.delete(objectId)
        } catch {
            cleanupFailure = error
        }
        let received = try #require(message, "no event for Chat/\(objectId) within \(Self.patienceSeconds) s")
        #expect(received.action == "updateTable")
        #expect(received.className == "Chat")
        #expect(received.objectId == objectId)
        #expect(received.data?["name"] as? String == name)
        #expect(received.data?["content"] as? String == content)
        if let cleanupFailure { Issue.record(cleanupFailure, "the test's Chat record was not deleted") }
    }

    @Test("the live test runs only when switched on and given both keys; the seed's and the issue's names both work")
    func settings() {
        let keys = ["BMOB_EVENT_APP_KEY": "app", "BMOB_EVENT_REST_KEY": "rest"]
        #expect(BmobEventChatSettings(environment: [:]) == nil)
        #expect(BmobEventChatSettings(environment: keys) == nil)
        #expect(BmobEventChatSettings(environment: keys.merging(["BMOB_EVENT_CHAT_LIVE_TEST": "0"]) { $1 }) == nil)
        #expect(BmobEventChatSettings(environment: keys.merging(["BMOB_EVENT_CHAT_LIVE_TEST": "yes"]) { $1 }) == nil)
        #expect(BmobEventChatSettings(environment: ["BMOB_EVENT_CHAT_LIVE_TEST": "1", "BMOB_EVENT_APP_KEY": "app"]) == nil)
        #expect(
            BmobEventChatSettings(environment: ["BMOB_EVENT_CHAT_LIVE_TEST": "1", "BMOB_EVENT_APP_KEY": " ", "BMOB_EVENT_REST_KEY": "r"])
                == nil)

        let seed = BmobEventChatSettings(environment: keys.merging(["BMOB_EVENT_CHAT_LIVE_TEST": "1"]) { $1 })
        #expect(seed?.appKey == "app" && seed?.restKey == "rest")
        #expect(seed?.domain == nil && seed?.ioDomain == nil)
        #expect(seed?.restDomain == BmobEventChatSettings.defaultRESTDomain)

        let local = BmobEventChatSettings(environment: [
            "BMOB_EVENT_CHAT_LIVE_TEST": " 1\n", "BMOB_EVENT_CHAT_APP_KEY": "app2", "BMOB_EVENT_CHAT_REST_KEY": "rest2",
            "BMOB_EVENT_CHAT_DOMAIN": "http://127.0.0.1:8080//", "BMOB_EVENT_CHAT_IO_DOMAIN": "ws://127.0.0.1:8080",
        ])
        #expect(local?.appKey == "app2" && local?.restKey == "rest2")
        #expect(local?.domain == "http://127.0.0.1:8080//")
        #expect(local?.restDomain == "http://127.0.0.1:8080")
        #expect(local?.ioDomain == "ws://127.0.0.1:8080")
    }
}
