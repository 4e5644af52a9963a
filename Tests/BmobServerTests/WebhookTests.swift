import BmobIO
import BmobServer
import BmobTesting
import BmobWire
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Webhooks against a real HTTP receiver (Python's `http.server`, `Tests/Support/python/webhook_receiver.py`)
/// that checks every call's signature and timestamp: functions and triggers of an app served elsewhere, the
/// shapes a receiver may answer, and receivers that refuse, time out, are down or answer garbage.
@Suite struct WebhookTests {
    static let secret = "webhook-secret-0123456789"

    /// The receiver: a child process on a free port.
    final class Receiver: Sendable {
        let process: ChildProcess
        let port: Int

        init() throws {
            (process, port) = try PythonPeer.startListening("webhook_receiver.py", [WebhookTests.secret])
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        /// The calls received so far.
        func calls() async throws -> [JSONValue] {
            let (data, _) = try await URLSession.shared.data(from: URL(string: url("/calls"))!)
            return try JSONParser.parse(Array(data))["calls"]?.arrayValue ?? []
        }

        func stop() async {
            process.send(SIGKILL)
            _ = await process.waitForExit()
        }
    }

    private func withReceiver(
        _ webhooks: (Receiver) -> AppWebhooks, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (TestServer, Receiver) async throws -> Void
    ) async throws {
        let receiver = try await withoutBlockingThePool { try Receiver() }
        let server = try await TestServer.start(webhooks: webhooks(receiver), configure: configure)
        do { try await body(server, receiver) } catch {
            await server.stop()
            await receiver.stop()
            throw error
        }
        await server.stop()
        await receiver.stop()
    }

    private func functions(_ receiver: Receiver) -> AppWebhooks {
        var webhooks = AppWebhooks()
        webhooks.secret = Self.secret
        for name in ["echo", "text", "refuse", "garbage", "slow", "status500"] {
            webhooks.functions[name] = receiver.url("/\(name)")
        }
        webhooks.functions["down"] = "http://127.0.0.1:9/nothing-listens-here"
        return webhooks
    }

    @Test("a function served by a webhook: signed calls, the caller, params as sent or as strings")
    func functionCalls() async throws {
        try await withReceiver(functions) { server, receiver in
            let (userId, token) = try await server.signUpUser("hooked", password: "secret123")
            let rest = try await server.call(
                "POST", "/1/functions/echo", json: ["n": 1, "s": "x"], headers: [("X-Bmob-Session-Token", token)])
            #expect(rest.json?["result"]?["params"] == ["n": 1, "s": "x"])
            #expect(rest.json?["result"]?["user"]?["objectId"]?.stringValue == userId)
            #expect(rest.json?["result"]?["master"] == false)
            let native = try await NativeTestClient(server).call("functions", ["data": ["_e": "echo", "n": 1]])
            #expect(native.data["results"]?["params"] == ["n": "1"])
            #expect(try await server.call("POST", "/1/functions/text", json: [:]).json?["result"] == "plain text")
            let calls = try await receiver.calls()
            #expect(calls.count == 3)
            #expect(calls.allSatisfy { $0["verified"] == true })
            #expect(calls.first?["payload"]?["function"] == "echo")
        }
    }

    @Test("refusals keep their code; garbage, errors, timeouts and a receiver that is down answer 310")
    func failures() async throws {
        try await withReceiver(functions, configure: { $0.webhookTimeoutSeconds = 1 }) { server, _ in
            let refused = try await server.call("POST", "/1/functions/refuse", json: [:])
            #expect(refused.json?["code"] == 142)
            #expect(refused.json?["error"] == "refused by the receiver")
            for name in ["garbage", "status500", "slow", "down"] {
                let answer = try await server.call("POST", "/1/functions/\(name)", json: [:])
                #expect(answer.json?["code"] == 310, "\(name)")
                #expect(answer.json?["error"]?.stringValue?.hasPrefix("the webhook of function \(name)") == true)
            }
            #expect(try await server.call("POST", "/1/functions/nothing", json: [:]).json?["code"] == 311)
        }
    }

    @Test("triggers served by webhooks: beforeSave changes and refuses, beforeFind narrows, afterSave is told")
    func triggers() async throws {
        let hooks: (Receiver) -> AppWebhooks = { receiver in
            var webhooks = AppWebhooks()
            webhooks.secret = Self.secret
            webhooks.triggers["Score"] = [
                .beforeSave: receiver.url("/before-save"), .beforeFind: receiver.url("/before-find"),
                .afterSave: receiver.url("/record"), .beforeDelete: receiver.url("/data-hook"),
            ]
            return webhooks
        }
        try await withReceiver(hooks) { server, receiver in
            #expect(try await server.call("POST", "/1/classes/Score", json: ["points": -1]).json?["code"] == 142)
            let created = try await server.call("POST", "/1/classes/Score", json: ["points": 5])
            let objectId = try #require(created.json?["objectId"]?.stringValue)
            #expect(try await server.call("GET", "/1/classes/Score/\(objectId)", master: true).json?["checked"] == true)
            _ = try await server.call("POST", "/1/classes/Score", json: ["points": 6, "hidden": true])
            let found = try await server.call("GET", "/1/classes/Score")
            #expect(found.json?["results"]?.arrayValue?.count == 1)
            #expect(try await server.call("DELETE", "/1/classes/Score/\(objectId)").status == 200)
            var recorded: [JSONValue] = []
            for _ in 0..<300 {
                recorded = try await receiver.calls().filter { $0["path"] == "/record" }
                if recorded.count >= 2 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(recorded.count == 2)
            #expect(recorded.contains { $0["payload"]?["object"]?["objectId"]?.stringValue == objectId })
            #expect(recorded.allSatisfy { $0["payload"]?["trigger"] == "afterSave" && $0["verified"] == true })
        }
    }

    @Test("a webhook with a wrong secret is refused by its receiver, and the write with it")
    func wrongSecret() async throws {
        let hooks: (Receiver) -> AppWebhooks = { receiver in
            var webhooks = AppWebhooks()
            webhooks.secret = "another-secret-0123456789"
            webhooks.triggers["Score"] = [.beforeSave: receiver.url("/before-save")]
            return webhooks
        }
        try await withReceiver(hooks) { server, receiver in
            let answer = try await server.call("POST", "/1/classes/Score", json: ["points": 1])
            #expect(answer.json?["code"] == 401)
            #expect(try await server.call("GET", "/1/classes/Score", master: true).json?["results"] == [])
            #expect(try await receiver.calls().allSatisfy { $0["verified"] == false })
        }
    }

    @Test("webhooks changed while the server runs (bmob apps webhooks) apply within seconds, without a restart")
    func changedWhileRunning() async throws {
        try await withReceiver({ _ in AppWebhooks() }) { server, receiver in
            #expect(try await server.call("POST", "/1/functions/echo", json: [:]).json?["code"] == 311)
            let registry = AppRegistry(
                dataDirectory: server.dataDirectory.path, storage: server.server.context.configuration.storage)
            let webhooks = functions(receiver)
            _ = try await withoutBlockingThePool {
                try registry.update(applicationId: TestServer.applicationId) { $0.webhooks = webhooks }
            }
            // About 2 s when the machine is idle, longer under the full PostgreSQL pass (thirty-odd servers on two
            // cores, each re-read opening a connection); the deadline only bounds a hang. (A re-read that read the
            // apps before this change and the change marker after it used to take the change as seen, for good.)
            var answer: JSONValue?
            let deadline = ContinuousClock.now + .seconds(240)
            while ContinuousClock.now < deadline {
                answer = try await server.call("POST", "/1/functions/echo", json: ["n": 1]).json
                if answer?["result"] != nil { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(answer?["result"]?["params"] == ["n": 1])
            // The keys are the app's own still.
            #expect(try await server.call("GET", "/1/classes/Anything").status == 200)
        }
    }

    @Test("apps.json webhooks: read back as written; bad URLs, events and short secrets are refused")
    func configuration() throws {
        var webhooks = AppWebhooks()
        webhooks.secret = Self.secret
        webhooks.functions["f"] = "https://hooks.example.com/f"
        webhooks.triggers["Score"] = [.afterSave: "http://127.0.0.1:1/a"]
        #expect(try AppWebhooks(json: webhooks.json) == webhooks)
        #expect(throws: ConfigurationError.self) {
            try AppWebhooks(json: ["functions": ["f": "file:///etc/passwd"], "secret": .string(Self.secret)])
        }
        #expect(throws: ConfigurationError.self) {
            try AppWebhooks(json: ["triggers": ["C": ["duringSave": "http://h/x"]], "secret": .string(Self.secret)])
        }
        #expect(throws: ConfigurationError.self) { try AppWebhooks(json: ["functions": ["f": "http://h/f"], "secret": "short"]) }
        #expect(try AppWebhooks(json: nil).isEmpty)
    }
}
