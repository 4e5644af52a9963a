import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Sync functions served by webhooks, for `bmob serve` users without Swift: signed calls with the caller, a query
/// re-run when a class it declares changes, and kinds checked as for Swift functions.
@Suite("Sync functions served by webhooks")
struct SyncWebhookTests {
    @Test("a webhook query re-runs when a class it reads changes; mutations and actions carry args and the user")
    func webhookFunctions() async throws {
        let receiver = try await withoutBlockingThePool { try WebhookTests.Receiver() }
        var webhooks = AppWebhooks()
        webhooks.secret = WebhookTests.secret
        webhooks.sync = [
            "stats:count": SyncWebhook(kind: .query, url: receiver.url("/sync-counter"), reads: ["notes"]),
            "notes:stamp": SyncWebhook(kind: .mutation, url: receiver.url("/sync-echo")),
            "mail:send": SyncWebhook(kind: .action, url: receiver.url("/sync-echo")),
        ]
        let server = try await TestServer.start(webhooks: webhooks)
        do {
            let (userId, token) = try await server.signUpUser("hooked", password: "pw-hooked")
            let client = try await SyncTestClient.connect(server)
            try await client.authenticate(token)
            try await client.subscribe(0, "stats:count")
            #expect(try await client.nextValue(0) == 1)
            _ = try await server.create("other", ["x": 1])
            _ = try await server.create("notes", ["text": "counted"])
            // The write to `other` re-ran nothing; the write to `notes` re-ran the query once.
            #expect(try await client.nextValue(0) == 2)

            try await client.mutation(1, "notes:stamp", ["n": 1])
            let stamped = try await client.mutationResponse(1)
            #expect(try stamped.value == ["function": "notes:stamp", "kind": "mutation", "args": ["n": 1], "user": ["objectId": .string(userId)]])
            try await client.action(2, "mail:send", ["to": "a@example.com"])
            #expect(try await client.actionResponse(2).value["kind"] == "action")
            try await client.action(3, "notes:stamp")
            #expect(try await client.actionResponse(3).failure == "notes:stamp is a mutation, not an action")
            let calls = try await receiver.calls()
            #expect(calls.allSatisfy { $0["verified"] == true })
        } catch {
            await server.stop()
            await receiver.stop()
            throw error
        }
        await server.stop()
        await receiver.stop()
    }

    @Test("apps.json: a sync webhook needs a known kind, an http(s) URL, a valid name, and a query its reads")
    func configuration() throws {
        let secret: JSONValue = .string(WebhookTests.secret)
        let good: JSONValue = ["secret": secret, "sync": ["notes:best": ["kind": "query", "url": "https://h/x", "reads": ["notes"]]]]
        let parsed = try AppWebhooks(json: good)
        #expect(parsed.sync["notes:best"] == SyncWebhook(kind: .query, url: "https://h/x", reads: ["notes"]))
        #expect(try AppWebhooks(json: parsed.json) == parsed)
        for bad: JSONValue in [
            ["secret": secret, "sync": ["notes:best": ["kind": "query", "url": "https://h/x"]]],
            ["secret": secret, "sync": ["notes:best": ["kind": "view", "url": "https://h/x"]]],
            ["secret": secret, "sync": ["notes:best": ["kind": "action", "url": "file:///etc/passwd"]]],
            ["secret": secret, "sync": ["../x": ["kind": "action", "url": "https://h/x"]]],
            ["sync": ["notes:best": ["kind": "action", "url": "https://h/x"]]],
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try AppWebhooks(json: bad) }
        }
    }
}
