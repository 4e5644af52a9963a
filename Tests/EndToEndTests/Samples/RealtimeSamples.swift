import BmobCore
import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

// The seed's 实时数据监听 section (seeds/000 lines 590–710, repeated in seeds/001), compiled as written and
// run against the in-process server, whose socket.io gateway shares its port (init's `io` points there).
// Placeholders are replaced: "YOUR_APP_KEY" by the test app, "https://next-realtime.example.com" by the
// server's address, "row-id" is a row the test seeds. Lines marked `// test:` are the test's own: they make
// the server write, wait until subscriptions are applied, assert, and end the sample's endless loops.

// 代理方式与生命周期 — as written, except `Error` is spelled `any Error`: this package builds its tests with
// the ExistentialAny upcoming feature and warnings as errors; in a default Swift 6 target the seed's
// spelling compiles unchanged (the requirement is the same type).
final class RealtimeObserver: BmobEventDelegate {
    func bmobEventDidConnect(_ event: BmobEvent) {
        print("连接已建立")
    }
    func bmobEventCanStartListen(_ event: BmobEvent) {
        print("服务端已就绪，已登记的订阅会自动发送")
    }
    func bmobEvent(_ event: BmobEvent, didReceiveMessage message: BmobEventMessage) {
        print(message.rawValue)
    }
    func bmobEvent(_ event: BmobEvent, didFailWithError error: any Error) {
        print(error.localizedDescription)
    }
    func bmobEventDidDisconnect(_ event: BmobEvent, error: (any Error)?) {
        print("连接已断开", error as Any)
    }
}

extension EndToEnd {
    @Suite("Seed samples: 实时数据监听", .timeLimit(.minutes(2)))
    struct RealtimeSamples {
        @Test("自定义监听域名: resetIODomain sets the address before or after initialize; nil restores init's io")
        func customIODomain() async throws {
            let server = try await SDKFixture.server()
            #expect(BmobClient.shared.realtimeAddress.httpOrigin == server.baseURL)  // test: init's io

            // 初始化前后均可设置，用 await 保证设置完成后再连接。
            try await Bmob.resetIODomain("https://realtime.example.com:443")
            #expect(BmobClient.shared.realtimeAddress == BmobIOAddress(isSecure: true, host: "realtime.example.com", port: 443))
            try await Bmob.initialize(appKey: TestServer.applicationId)  // test: initialize never overwrites it
            #expect(BmobClient.shared.customRealtimeAddress?.host == "realtime.example.com")
            await #expect(throws: BmobError.self) { try await Bmob.resetIODomain("https://realtime.example.com/path") }
            #expect(BmobClient.shared.customRealtimeAddress?.host == "realtime.example.com")

            // 清除自定义配置，恢复使用服务端 io（未返回时使用默认地址）
            try await Bmob.resetIODomain(nil)
            #expect(BmobClient.shared.customRealtimeAddress == nil)
            #expect(BmobClient.shared.realtimeAddress.httpOrigin == server.baseURL)
        }

        @Test("切换地址: disconnect, a new eventStream, connect; subscriptions are kept")
        func switchAddress() async throws {
            let server = try await SDKFixture.server()
            let event = BmobEvent()
            event.listenTableChange(className: "SwitchNote")  // test: registered before the switch
            let first = EventCollector(event.eventStream())
            event.connect()
            try await RealtimeFixture.waitUntilLive(event)
            defer { event.disconnect() }
            let marker = UUID().uuidString

            try await Bmob.resetIODomain(server.baseURL)
            event.disconnect()
            let nextMessages = event.eventStream()  // 主动断开已结束旧事件流
            // 已登记的订阅会保留，无需重复登记。
            event.connect()
            let writer = Task {  // test: once the new connection is live, write a row (or end the loop)
                do {
                    try await RealtimeFixture.waitUntilLive(event)
                    return try await RealtimeFixture.create("SwitchNote", ["marker": .string(marker)])
                } catch {
                    event.disconnect()
                    throw error
                }
            }
            var received: BmobEventMessage?  // test
            for await message in nextMessages {
                print(message.rawValue)
                if message.data?["marker"] as? String == marker {  // test
                    received = message
                    break
                }
            }

            let id = try await writer.value
            #expect(received?.objectId == id)
            #expect(received?.className == "SwitchNote")
            try await first.waitForEnd()  // test: the first stream ended with the disconnect
            #expect(first.messages.filter { $0.className == "SwitchNote" }.isEmpty)
            try await Bmob.resetIODomain(nil)
            try await RealtimeFixture.delete("SwitchNote", id)
        }

        @Test("AsyncStream 方式: table updates and a row deletion arrive in the stream")
        func asyncStream() async throws {
            let server = try await SDKFixture.server()
            try await SDKFixture.emptyClasses("Post")
            try await server.seedObject(className: "Post", objectId: "row-id", fields: ["title": "seeded"])
            let marker = UUID().uuidString

            // 在业务对象中保存此实例，直到不再需要监听。
            let event = BmobEvent()
            try await Bmob.initialize(appKey: TestServer.applicationId)
            let messages = event.eventStream()
            event.listenTableChange(className: "Post")
            event.listenRowChange(.deleteRow, tableName: "Post", objectId: "row-id")
            event.connect()

            let writer = Task {  // test: write once live; the loop below ends with disconnect()
                do {
                    try await RealtimeFixture.waitUntilLive(event)
                    let id = try await RealtimeFixture.create("Post", ["title": .string(marker)])
                    try await RealtimeFixture.delete("Post", "row-id")
                    return id
                } catch {
                    event.disconnect()
                    throw error
                }
            }
            var seen: [BmobEventMessage] = []  // test
            for await message in messages {
                print(message.action ?? "", message.className ?? "", message.objectId ?? "")
                print(message.data ?? [:])
                // UI 更新请回到 MainActor。
                if message.className == "Post" { seen.append(message) }  // test
                if message.action == "deleteRow" { event.disconnect() }  // test
            }

            let id = try await writer.value
            #expect(seen.map { $0.action ?? "" } == ["updateTable", "deleteRow"])
            #expect(seen.first?.objectId == id)
            #expect(seen.first?.data?["title"] as? String == marker)
            #expect(seen.last?.objectId == "row-id")
            #expect(seen.last?.data?["title"] as? String == "seeded")
            try await RealtimeFixture.delete("Post", id)
        }

        @Test("监听与取消监听: the four actions; cancelling stops exactly the cancelled ones")
        func listenAndCancel() async throws {
            let server = try await SDKFixture.server()
            try await SDKFixture.emptyClasses("Post")
            try await server.seedObject(className: "Post", objectId: "row-id", fields: ["n": 0])
            let event = BmobEvent()
            let collector = EventCollector(event.eventStream())

            event.listenTableChange(.updateTable, tableName: "Post")
            event.listenTableChange(.deleteTable, tableName: "Post")
            event.listenRowChange(.updateRow, tableName: "Post", objectId: "row-id")
            event.listenRowChange(.deleteRow, tableName: "Post", objectId: "row-id")
            #expect(event.subscriptions.count == 4)  // test
            event.connect()
            try await RealtimeFixture.waitUntilLive(event)
            try await RealtimeFixture.update("Post", "row-id", ["n": 1])  // test
            let updates = try await collector.wait("both update events") { messages in
                messages.filter { $0.className == "Post" }.count == 2
            }.filter { $0.className == "Post" }
            #expect(Set(updates.compactMap(\.action)) == ["updateTable", "updateRow"])
            #expect(updates.allSatisfy { $0.objectId == "row-id" && $0.data?["n"] as? Int == 1 })

            event.cancelListenTableChange(.updateTable, tableName: "Post")
            event.cancelListenRowChange(.deleteRow, tableName: "Post", objectId: "row-id")
            #expect(event.subscriptions.count == 2)  // test
            try await RealtimeFixture.waitUntilLive(event)  // test: the cancellations are applied
            try await RealtimeFixture.update("Post", "row-id", ["n": 2])
            try await RealtimeFixture.delete("Post", "row-id")
            let dropped = try await server.request("DELETE", "/1/schemas/Post", headers: server.masterHeaders)
            #expect(dropped.status == 200)
            let all = try await collector.wait("the deleteTable event") { messages in
                messages.contains { $0.action == "deleteTable" }
            }.filter { $0.className == "Post" }
            #expect(all.compactMap(\.action) == ["updateTable", "updateRow", "updateRow", "deleteTable"])
            #expect(all[2].data?["n"] as? Int == 2)
            event.disconnect() // 或 stop()
            try await collector.waitForEnd()
        }

        @Test("代理方式与生命周期: the sample observer as a weak delegate beside a stream")
        @MainActor
        func delegateSample() async throws {
            _ = try await SDKFixture.server()
            let event = BmobEvent()
            var observer: RealtimeObserver? = RealtimeObserver()
            event.delegate = observer
            #expect(event.delegate === observer)
            let collector = EventCollector(event.eventStream())
            let marker = UUID().uuidString
            event.listenTableChange(className: "ObservedNote")
            #expect(!event.isConnected)  // test: only after the server's connect packet
            event.connect()
            try await RealtimeFixture.waitUntilLive(event)
            #expect(event.isConnected)
            let id = try await RealtimeFixture.create("ObservedNote", ["marker": .string(marker)])
            let messages = try await collector.wait("the note") { !$0.filter { $0.objectId == id }.isEmpty }
            #expect(messages.filter { $0.objectId == id }.count == 1)
            // The delegate is held weakly.
            observer = nil
            #expect(event.delegate == nil)
            event.disconnect()
            #expect(!event.isConnected)
            try await RealtimeFixture.delete("ObservedNote", id)
        }

        @Test("运行 Chat 端到端测试: subscribe Chat.updateTable, create through REST, check the event, delete")
        func chat() async throws {
            _ = try await SDKFixture.server()
            let event = BmobEvent()
            try await Bmob.initialize(appKey: TestServer.applicationId)
            let collector = EventCollector(event.eventStream())
            event.listenTableChange(.updateTable, tableName: "Chat")
            event.connect()
            defer { event.disconnect() }
            try await RealtimeFixture.waitUntilLive(event)

            let marker = "chat-e2e-\(UUID().uuidString)"
            let id = try await RealtimeFixture.create("Chat", ["name": .string(marker), "content": "你好，实时数据"])
            let matching = try await collector.wait("the Chat event") { !$0.filter { $0.objectId == id }.isEmpty }
                .filter { $0.objectId == id }
            let message = try #require(matching.first)
            #expect(message.action == "updateTable")
            #expect(message.className == "Chat")
            #expect(message.objectId == id)
            #expect(message.data?["name"] as? String == marker)
            #expect(message.data?["content"] as? String == "你好，实时数据")
            #expect(message.rawValue["tableName"] as? String == "Chat")
            try await Task.sleep(for: .milliseconds(300))
            #expect(collector.messages.filter { $0.objectId == id }.count == 1)
            // Cleanup failures fail the test.
            try await RealtimeFixture.delete("Chat", id)
            #expect(try await SDKFixture.restObject("Chat", id) == nil)
        }
    }
}
