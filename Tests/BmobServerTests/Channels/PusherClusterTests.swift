import BmobIO
import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// Channels across several server nodes on one PostgreSQL database: publishes, client events, presence, terminate
/// and occupancy webhooks reach (and count) every node's connections, through the store's channel state and log.
@Suite(
    "Channels across several nodes on PostgreSQL",
    .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct PusherClusterTests {
    /// Starts `count` servers on one fresh database and one data folder (``withPostgresNodes``), with the test app's
    /// `channels` and node `index`'s channel node timeout `timeouts[index]` (else `nodeTimeoutSeconds`), runs `body`
    /// with them and the database's URL, and stops them.
    private func withNodes(
        _ count: Int, channels: AppChannels = TestServer.channels, nodeTimeoutSeconds: Int = 30,
        timeouts: [Int]? = nil, _ body: ([TestServer], String) async throws -> Void
    ) async throws {
        try await withPostgresNodes(
            count, channels: channels,
            configure: { index, _, configuration in
                configuration.channelNodeTimeoutSeconds = timeouts?[index] ?? nodeTimeoutSeconds
            }, body)
    }

    /// The `data` of a frame, parsed.
    private func data(_ frame: JSONValue) throws -> JSONValue {
        try JSONParser.parse(try #require(frame["data"]?.stringValue))
    }

    @Test("an HTTP API publish on one node reaches the subscribers of every node, each once")
    func publishesCrossNodes() async throws {
        try await withNodes(2) { nodes, _ in
            let onA = try await PusherTestClient.connect(nodes[0])
            let onB = try await PusherTestClient.connect(nodes[1])
            let bird = try await PusherTestClient.connect(nodes[1], prefix: "bird")
            for client in [onA, onB, bird] {
                #expect(
                    try await client.subscribe("news")["event"]?.stringValue
                        == "\(client.prefix)_internal:subscription_succeeded")
            }
            let api = PusherAPIClient(server: nodes[0])
            let published = try await api.trigger(["news"], "headline", #"{"title":"one"}"#)
            #expect(published.status == 200, "\(published.text)")
            for client in [onA, onB, bird] {
                let event = try await client.nextEvent()
                #expect(event["event"] == "headline" && event["channel"] == "news", "\(event)")
                #expect(event["data"] == #"{"title":"one"}"#)
                #expect(try await client.silence() == nil, "\(client.prefix) on a node heard it twice")
            }
            // A batch through node B, one event skipping a socket on node A.
            let batch = try await PusherAPIClient(server: nodes[1]).call(
                "POST", "/apps/\(api.appId)/batch_events",
                body: [
                    "batch": [
                        ["name": "first", "channel": "news", "data": "1", "socket_id": .string(onA.socketId)],
                        ["name": "second", "channel": "news", "data": "2"],
                    ]
                ])
            #expect(batch.status == 200, "\(batch.text)")
            #expect(try await onA.nextEvent()["event"] == "second")
            for client in [onB, bird] {
                #expect(try await client.nextEvent()["event"] == "first")
                #expect(try await client.nextEvent()["event"] == "second")
            }
        }
    }

    @Test("subscription counts count every node's connections and reach every node, in the order of the changes")
    func subscriptionCountsCrossNodes() async throws {
        var channels = TestServer.channels
        channels.subscriptionCount = true
        try await withNodes(2, channels: channels) { nodes, _ in
            let onA = try await PusherTestClient.connect(nodes[0])
            #expect(try await onA.subscribe("news")["event"] == "pusher_internal:subscription_succeeded")
            #expect(try await onA.nextSubscriptionCount() == 1)
            let onB = try await PusherTestClient.connect(nodes[1], prefix: "bird")
            #expect(try await onB.subscribe("news")["event"] == "bird_internal:subscription_succeeded")
            #expect(try await onB.nextSubscriptionCount() == 2)
            #expect(try await onA.nextSubscriptionCount() == 2, "node A heard node B's join")
            let alsoOnB = try await PusherTestClient.connect(nodes[1])
            #expect(try await alsoOnB.subscribe("news")["event"] == "pusher_internal:subscription_succeeded")
            for client in [onA, onB, alsoOnB] { #expect(try await client.nextSubscriptionCount() == 3) }
            try await onB.send(["event": "bird:unsubscribe", "data": ["channel": "news"]])
            for client in [onA, alsoOnB] { #expect(try await client.nextSubscriptionCount() == 2) }
            #expect(try await onA.silence() == nil, "each change is announced once")
        }
    }

    @Test("a client event sent on one node reaches the channel's members on another, never its sender")
    func clientEventsCrossNodes() async throws {
        var channels = TestServer.channels
        channels.clientEvents = true
        try await withNodes(2, channels: channels) { nodes, _ in
            let ada = try await PusherTestClient.connect(nodes[0])
            let bob = try await PusherTestClient.connect(nodes[1])
            _ = try await ada.subscribe("presence-chat", channelData: #"{"user_id":"ada"}"#)
            _ = try await bob.subscribe("presence-chat", channelData: #"{"user_id":"bob"}"#)
            #expect(try await ada.nextEvent()["event"] == "pusher_internal:member_added")
            try await bob.send(["event": "client-typing", "channel": "presence-chat", "data": ["now": true]])
            let heard = try await ada.nextEvent()
            #expect(heard["event"] == "client-typing" && heard["user_id"] == "bob", "\(heard)")
            #expect(heard["data"] == ["now": true], "\(heard)")
            #expect(try await bob.silence() == nil, "the sender heard its own client event")
        }
    }

    @Test("presence: members on every node, one member per user across nodes, counts and users from any node")
    func presenceAcrossNodes() async throws {
        try await withNodes(2) { nodes, _ in
            let ada = try await PusherTestClient.connect(nodes[0])
            let adaJoined = try await ada.subscribe(
                "presence-room", channelData: #"{"user_id":"ada","user_info":{"name":"Ada"}}"#)
            #expect(try data(adaJoined)["presence"]?["count"] == 1)

            let bob = try await PusherTestClient.connect(nodes[1])
            let bobJoined = try await bob.subscribe("presence-room", channelData: #"{"user_id":"bob"}"#)
            let both = try data(bobJoined)["presence"]
            #expect(both?["count"] == 2 && Set(both?["ids"]?.arrayValue ?? []) == ["ada", "bob"], "\(bobJoined)")
            #expect(both?["hash"]?["ada"] == ["name": "Ada"], "node B lists node A's member with its info")
            let added = try await ada.nextEvent()
            #expect(added["event"] == "pusher_internal:member_added")
            #expect(try data(added)["user_id"] == "bob")

            // Bob again, on node A: the same user, so no new member anywhere.
            let bobAgain = try await PusherTestClient.connect(nodes[0])
            let againJoined = try await bobAgain.subscribe("presence-room", channelData: #"{"user_id":"bob"}"#)
            #expect(try data(againJoined)["presence"]?["count"] == 2)
            #expect(try await ada.silence() == nil)
            #expect(try await bob.silence(milliseconds: 100) == nil)

            for node in nodes {
                let api = PusherAPIClient(server: node)
                let info = try await api.call(
                    "GET", "/apps/\(api.appId)/channels/presence-room",
                    query: [("info", "user_count,subscription_count")])
                #expect(info.json == ["occupied": true, "user_count": 2, "subscription_count": 3], "\(info.text)")
                let users = try await api.call("GET", "/apps/\(api.appId)/channels/presence-room/users")
                #expect(users.json == ["users": [["id": "ada"], ["id": "bob"]]], "\(users.text)")
                let list = try await api.call(
                    "GET", "/apps/\(api.appId)/channels",
                    query: [("filter_by_prefix", "presence-"), ("info", "user_count")])
                #expect(list.json == ["channels": ["presence-room": ["user_count": 2]]], "\(list.text)")
            }

            // Bob's first connection leaves: Bob stays (his other one is on the other node).
            try await bob.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-room"]])
            #expect(try await ada.silence() == nil, "member_removed while Bob still had a connection")
            // His last one closes: now he is gone, for Ada on node A.
            try await bobAgain.socket.send(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]))
            let removed = try await ada.nextEvent()
            #expect(removed["event"] == "pusher_internal:member_removed")
            #expect(try data(removed) == ["user_id": "bob"])
            let users = try await PusherAPIClient(server: nodes[1]).call(
                "GET", "/apps/123456/channels/presence-room/users")
            #expect(users.json == ["users": [["id": "ada"]]], "\(users.text)")
        }
    }

    @Test("terminate through one node closes the user's connections on every node with 4009")
    func terminateCrossesNodes() async throws {
        try await withNodes(2) { nodes, _ in
            let onB = try await PusherTestClient.connect(nodes[1])
            let signedIn = try await onB.signIn(#"{"id":"carol"}"#)
            #expect(signedIn["event"] == "pusher:signin_success", "\(signedIn)")
            let bystander = try await PusherTestClient.connect(nodes[1])
            _ = try await bystander.signIn(#"{"id":"dave"}"#)
            let api = PusherAPIClient(server: nodes[0])
            let terminated = try await api.call(
                "POST", "/apps/\(api.appId)/users/carol/terminate_connections", body: [:])
            #expect(terminated.status == 200, "\(terminated.text)")
            #expect(try await onB.socket.nextClose()?.rawValue == 4009)
            #expect(try await bystander.silence() == nil)
        }
    }

    @Test("occupancy and member webhooks go out once for the whole cluster, from the node that made the change")
    func webhooksOnceAcrossNodes() async throws {
        let receiver = try await withoutBlockingThePool { try PusherWebhookTests.Receiver() }
        var channels = TestServer.channels
        channels.webhookURL = "http://127.0.0.1:\(receiver.port)/"
        do {
            try await withNodes(2, channels: channels) { nodes, _ in
                let ada = try await PusherTestClient.connect(nodes[0])
                let bob = try await PusherTestClient.connect(nodes[1])
                let adaAgain = try await PusherTestClient.connect(nodes[1])
                _ = try await ada.subscribe("presence-hooked", channelData: #"{"user_id":"ada"}"#)
                _ = try await bob.subscribe("presence-hooked", channelData: #"{"user_id":"bob"}"#)
                _ = try await adaAgain.subscribe("presence-hooked", channelData: #"{"user_id":"ada"}"#)
                #expect(try await ada.nextEvent()["event"] == "pusher_internal:member_added")
                _ = try await ada.subscribe("lobby")
                _ = try await bob.subscribe("lobby")
                // A public channel's subscription is answered before the cluster has counted it: wait for both,
                // so that the channel is vacated once, after both left.
                let api = PusherAPIClient(server: nodes[0])
                _ = try await eventually {
                    try await api.call(
                        "GET", "/apps/\(api.appId)/channels/lobby", query: [("info", "subscription_count")]
                    )
                    .json?["subscription_count"] == 2
                }
                try await bob.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-hooked"]])
                try await bob.send(["event": "pusher:unsubscribe", "data": ["channel": "lobby"]])
                try await ada.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-hooked"]])
                try await ada.send(["event": "pusher:unsubscribe", "data": ["channel": "lobby"]])
                try await adaAgain.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-hooked"]])
                let expected = [
                    "channel_occupied presence-hooked ", "member_added presence-hooked ada",
                    "member_added presence-hooked bob",
                    "channel_occupied lobby ", "member_removed presence-hooked bob", "channel_vacated lobby ",
                    "member_removed presence-hooked ada", "channel_vacated presence-hooked ",
                ]
                var names: [String] = []
                _ = try await eventually {
                    names = try await receiver.events().map { received in
                        let event = received.event
                        return
                            "\(event["name"]?.stringValue ?? "?") \(event["channel"]?.stringValue ?? "") \(event["user_id"]?.stringValue ?? "")"
                    }
                    return names.count >= expected.count
                }
                // Duplicates would come from the other node moments later.
                try await Task.sleep(for: .milliseconds(500))
                names = try await receiver.events().map { received in
                    let event = received.event
                    return
                        "\(event["name"]?.stringValue ?? "?") \(event["channel"]?.stringValue ?? "") \(event["user_id"]?.stringValue ?? "")"
                }
                #expect(names.sorted() == expected.sorted(), "\(names)")
                #expect(try await receiver.events().allSatisfy(\.valid))
            }
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }

    @Test("a node killed with SIGKILL: its members leave the others' presence within the node timeout, announced once")
    func deadNodesMembersLeave() async throws {
        let receiver = try await withoutBlockingThePool { try PusherWebhookTests.Receiver() }
        var channels = TestServer.channels
        channels.webhookURL = "http://127.0.0.1:\(receiver.port)/"
        do {
            // Two survivors, so that both may notice the dead node: only one removes it and announces.
            try await withNodes(2, channels: channels, nodeTimeoutSeconds: 2) { nodes, url in
                let folder = nodes[0].dataDirectory
                let process = try await withoutBlockingThePool {
                    try CLITests.serve(
                        [
                            "--port", "0", "--data", folder.path, "--database", url, "--log-level", "error",
                            "--channel-node-timeout-seconds", "2", "--header-timeout", "60",
                        ],
                        error: .inherit)
                }
                defer { process.process.send(SIGKILL) }
                guard let line = process.output.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                    let port = line.split(separator: ":").last.flatMap({ Int($0) })
                else { throw TestFailure("bmob serve did not start: \(process.output)") }
                let output = process.process
                BmobIO.Thread.spawn(name: "node-output") {
                    while !ChildProcess.read(output.output!).isEmpty {}
                }.detach()

                let ada = try await PusherTestClient.connect(nodes[0])
                _ = try await ada.subscribe("presence-room", channelData: #"{"user_id":"ada"}"#)
                let cleo = try await PusherTestClient.connect(nodes[1])
                _ = try await cleo.subscribe("presence-room", channelData: #"{"user_id":"cleo"}"#)
                #expect(try data(try await ada.nextEvent())["user_id"] == "cleo")
                let bob = try await PusherTestClient.connect(port: port)
                let bobJoined = try await bob.subscribe("presence-room", channelData: #"{"user_id":"bob"}"#)
                #expect(try data(bobJoined)["presence"]?["count"] == 3, "\(bobJoined)")
                #expect(try data(try await ada.nextEvent())["user_id"] == "bob")
                #expect(try data(try await cleo.nextEvent())["user_id"] == "bob")
                let lobby = try await PusherTestClient.connect(port: port)
                _ = try await lobby.subscribe("lobby")
                let api = PusherAPIClient(server: nodes[0])
                _ = try await eventually {
                    try await api.call("GET", "/apps/\(api.appId)/channels").json?["channels"]?["lobby"] != nil
                }

                let killed = ContinuousClock.now
                process.process.send(SIGKILL)
                _ = await process.process.waitForExit()
                for survivor in [ada, cleo] {
                    let removed = try await survivor.nextEvent()
                    #expect(removed["event"] == "pusher_internal:member_removed", "\(removed)")
                    #expect(try data(removed) == ["user_id": "bob"])
                }
                // The timeout (2 s) plus a beat (2/3 s) and the log's wake-up; far less than the client's own timeouts.
                #expect(ContinuousClock.now - killed < .seconds(10))
                for node in nodes {
                    let api = PusherAPIClient(server: node)
                    let info = try await api.call(
                        "GET", "/apps/\(api.appId)/channels/presence-room",
                        query: [("info", "user_count,subscription_count")])
                    #expect(info.json == ["occupied": true, "user_count": 2, "subscription_count": 2], "\(info.text)")
                    let list = try await api.call("GET", "/apps/\(api.appId)/channels")
                    #expect(
                        list.json == ["channels": ["presence-room": [:]]],
                        "the dead node's lobby is vacated: \(list.text)")
                }
                func departures() async throws -> [String] {
                    try await receiver.events().map(\.event).filter {
                        $0["name"] == "member_removed" || $0["name"] == "channel_vacated"
                    }
                    .map {
                        "\($0["name"]?.stringValue ?? "") \($0["channel"]?.stringValue ?? "") \($0["user_id"]?.stringValue ?? "")"
                    }
                }
                _ = try await eventually { try await departures().count >= 2 }
                try await Task.sleep(for: .milliseconds(1500))  // two more beats of each survivor
                #expect(
                    try await departures().sorted() == ["channel_vacated lobby ", "member_removed presence-room bob"])
            }
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }

    @Test("a node that stops cleanly takes its members with it at once, not after the timeout")
    func cleanShutdownLeaves() async throws {
        try await withNodes(2) { nodes, _ in
            let ada = try await PusherTestClient.connect(nodes[0])
            _ = try await ada.subscribe("presence-room", channelData: #"{"user_id":"ada"}"#)
            let bob = try await PusherTestClient.connect(nodes[1])
            _ = try await bob.subscribe("presence-room", channelData: #"{"user_id":"bob"}"#)
            #expect(try data(try await ada.nextEvent())["user_id"] == "bob")
            let stopping = ContinuousClock.now
            await nodes[1].stop()
            let removed = try await ada.nextEvent()
            #expect(removed["event"] == "pusher_internal:member_removed")
            #expect(try data(removed) == ["user_id": "bob"])
            #expect(ContinuousClock.now - stopping < .seconds(15), "well within the 30-second node timeout")
            let api = PusherAPIClient(server: nodes[0])
            let info = try await api.call(
                "GET", "/apps/\(api.appId)/channels/presence-room", query: [("info", "user_count")])
            #expect(info.json == ["occupied": true, "user_count": 1], "\(info.text)")
        }
    }

    @Test(
        "a node the others declared dead while it lived (its beat too slow for their timeout) records its members again"
    )
    func revivedNodesRecordAgain() async throws {
        // Node B beats every 2 s (its own timeout is 6 s); node A declares a node dead after 1 s of silence. A
        // misconfiguration (every node should have the same timeout), which stands in for a node cut off from the
        // database for longer than the timeout.
        try await withNodes(2, timeouts: [1, 6]) { nodes, _ in
            let ada = try await PusherTestClient.connect(nodes[0])
            _ = try await ada.subscribe("presence-room", channelData: #"{"user_id":"ada"}"#)
            let bob = try await PusherTestClient.connect(nodes[1])
            _ = try await bob.subscribe("presence-room", channelData: #"{"user_id":"bob"}"#)
            #expect(try data(try await ada.nextEvent())["user_id"] == "bob")
            let removed = try await ada.nextEvent()
            #expect(removed["event"] == "pusher_internal:member_removed", "node A reaps node B: \(removed)")
            let back = try await ada.nextEvent()
            #expect(back["event"] == "pusher_internal:member_added", "node B records Bob again: \(back)")
            #expect(try data(back)["user_id"] == "bob")
        }
    }

    @Test("rows that outlive their node's removal (a join under way as it was declared dead, then silence) go too")
    func orphanedRowsGo() async throws {
        try await withNodes(1, nodeTimeoutSeconds: 1) { nodes, url in
            let ada = try await PusherTestClient.connect(nodes[0])
            _ = try await ada.subscribe("presence-room", channelData: #"{"user_id":"ada"}"#)
            // A node that beats once (its own timeout is an hour, so its next beat is 20 minutes away).
            let slow = PostgresChannelCluster(.init(url: url, node: "slow", nodeTimeoutSeconds: 3600))
            try await slow.start(
                .init(
                    deliver: { _ in }, reaped: { _ in }, revived: {},
                    memberAdded: { _, channel, member in #"{"k":"added","c":"\#(channel)","u":"\#(member.userId)"}"# },
                    memberRemoved: { _ in "" }))
            func join(_ user: String) async throws {
                let subscription = ChannelClusterSubscription(
                    applicationId: TestServer.applicationId, channel: "presence-room", socket: "1.\(user.count)",
                    member: ChannelClusterMember(userId: user, userInfo: nil))
                _ = try await withCheckedThrowingContinuation { continuation in
                    slow.join(subscription) { continuation.resume(with: $0) }
                }
            }
            do {
                try await join("early")
                #expect(try data(try await ada.nextEvent())["user_id"] == "early")
                let reaped = try await ada.nextEvent()
                #expect(reaped["event"] == "pusher_internal:member_removed", "\(reaped)")
                #expect(try data(reaped)["user_id"] == "early")
                // Declared dead; its next join finds no heartbeat row of its own.
                try await join("ghost")
                #expect(try data(try await ada.nextEvent())["user_id"] == "ghost")
                let removed = try await ada.nextEvent()
                #expect(removed["event"] == "pusher_internal:member_removed", "\(removed)")
                #expect(try data(removed)["user_id"] == "ghost")
            } catch {
                await slow.stop()
                throw error
            }
            await slow.stop()
        }
    }

    @Test("a leave made while PostgreSQL is away is recorded once it is back: the member leaves every node")
    func leavesSurviveAnOutage() async throws {
        let postgres = PrivatePostgres()
        defer { postgres.destroy() }
        let url = try await withoutBlockingThePool { try postgres.start() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bmob-channel-outage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var nodes: [TestServer] = []
        do {
            for _ in 0..<2 {
                nodes.append(
                    try await TestServer.start(dataDirectory: folder) {
                        $0.storage = .postgres(url: url)
                        $0.channelNodeTimeoutSeconds = 3  // a beat a second: the retry comes sooner
                    })
            }
            let ada = try await PusherTestClient.connect(nodes[0])
            _ = try await ada.subscribe("presence-room", channelData: #"{"user_id":"ada"}"#)
            let bob = try await PusherTestClient.connect(nodes[1])
            _ = try await bob.subscribe("presence-room", channelData: #"{"user_id":"bob"}"#)
            #expect(try data(try await ada.nextEvent())["user_id"] == "bob")

            try await withoutBlockingThePool { try postgres.stop() }
            try await bob.send(["event": "pusher:unsubscribe", "data": ["channel": "presence-room"]])
            try await Task.sleep(for: .milliseconds(700))
            _ = try await withoutBlockingThePool { try postgres.start() }

            // Node B tries its leave again after a heartbeat, and both nodes' readers reconnect.
            let removed = try await ada.nextEvent()
            #expect(removed["event"] == "pusher_internal:member_removed", "\(removed)")
            #expect(try data(removed) == ["user_id": "bob"])
            let api = PusherAPIClient(server: nodes[0])
            let users = try await api.call("GET", "/apps/\(api.appId)/channels/presence-room/users")
            #expect(users.json == ["users": [["id": "ada"]]], "\(users.text)")
            // And channels work as before.
            let carol = try await PusherTestClient.connect(nodes[1])
            _ = try await carol.subscribe("presence-room", channelData: #"{"user_id":"carol"}"#)
            #expect(try data(try await ada.nextEvent())["user_id"] == "carol")
        } catch {
            for node in nodes { await node.stop() }
            throw error
        }
        for node in nodes { await node.stop() }
    }

    @Test("malformed, oversized and other apps' messages in the log reach nobody and stop no node")
    func hostileLogRows() async throws {
        try await withNodes(2) { nodes, url in
            let listener = try await PusherTestClient.connect(nodes[1])
            _ = try await listener.subscribe("news")
            // Another writer of the log, as a compromised or buggy node would be.
            let intruder = PostgresChannelCluster(.init(url: url, node: "intruder"))
            let valid = #"{"k":"event","c":["news"],"n":"headline","d":"forged for another app"}"#
            do {
                try await intruder.append([
                    (TestServer.applicationId, "not json"),
                    (TestServer.applicationId, "[1,2,3]"),
                    (TestServer.applicationId, #"{"k":"event","c":["news"]}"#),
                    (TestServer.applicationId, #"{"k":"event","c":"news","n":"x","d":"a channel, not a list"}"#),
                    (TestServer.applicationId, #"{"k":"event","c":[],"n":"x","d":"no channel"}"#),
                    (TestServer.applicationId, #"{"k":"event","c":["news","bad channel!"],"n":"x","d":"y"}"#),
                    (TestServer.applicationId, #"{"k":"nuke","c":"news","n":"x","d":"y"}"#),
                    (
                        TestServer.applicationId,
                        #"{"k":"event","c":["news"],"n":"pusher:connection_established","d":"{}"}"#
                    ),
                    (TestServer.applicationId, #"{"k":"event","c":["news"],"n":"x","d":"y","x":"not-a-socket"}"#),
                    (TestServer.applicationId, #"{"k":"added","c":"news","u":"public channels have no members"}"#),
                    (TestServer.applicationId, #"{"k":"client","c":"news","n":"client-x","x":"1.1"}"#),
                    (
                        TestServer.applicationId,
                        #"{"k":"event","c":["news"],"n":"big","d":""# + String(repeating: "x", count: 200_000) + #""}"#
                    ),
                    (TestServer.applicationId, #"{"k":"terminate","u":""}"#),
                    ("someotherapp00000000000000000001", valid),
                    (TestServer.applicationId, #"{"k":"event","c":["news"],"n":"after","d":"still working"}"#),
                ])
            } catch {
                await intruder.stop()
                throw error
            }
            await intruder.stop()
            let heard = try await listener.nextEvent()
            #expect(heard["event"] == "after" && heard["data"] == "still working", "\(heard)")
            #expect(try await listener.silence() == nil)
            // Both nodes still work.
            let published = try await PusherAPIClient(server: nodes[0]).trigger(["news"], "later", "1")
            #expect(published.status == 200)
            #expect(try await listener.nextEvent()["event"] == "later")
        }
    }
}
