import BmobServer
import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Synchronization
import Testing

/// History through the other doors and around other features: the native `/8/` routes answer as REST does,
/// revert and restore pass through `beforeSave`/`afterSave` triggers and reach realtime subscribers, pruning
/// leaves subscribers' feeds intact, and `bmob apps history` sets the retention.
@Suite("History: native door, triggers, realtime, retention settings")
struct HistoryDoorsTests {
    @Test("native history, deleted, revert, restore and server_info answer what REST answers")
    func nativeRoutes() async throws {
        try await withTestServer { server in
            let client = NativeTestClient(server)
            let created = try await client.data("create", ["c": "Song", "data": ["title": "a"]])
            let id = try #require(created["objectId"]?.stringValue)
            _ = try await client.data("update", ["c": "Song", "objectId": .string(id), "data": ["title": "b"]])

            let history = try await client.data("history", ["c": "Song", "objectId": .string(id), "data": [:]])
            let rest = try await server.call("GET", "/1/history/Song/\(id)")
            #expect(history == rest.json)
            let entries = try #require(history["results"]?.arrayValue)
            #expect(entries.first?["door"] == "native")
            let seq = try #require(entries.first?["seq"]?.int64Value)
            let classHistory = try await client.data("history", ["c": "Song", "data": ["op": "update"]])
            #expect(classHistory["results"]?.arrayValue?.count == 1)

            let reverted = try await client.data(
                "revert", ["c": "Song", "objectId": .string(id), "data": ["seq": .int(seq)]])
            #expect(reverted["changed"] == ["title"])
            #expect(try await server.call("GET", "/1/classes/Song/\(id)").json?["title"] == "a")

            _ = try await client.data("delete", ["c": "Song", "objectId": .string(id)])
            let deleted = try await client.data("deleted", ["c": "Song", "data": ["limit": 10]])
            #expect(deleted["results"]?.arrayValue?.first?["objectId"]?.stringValue == id)
            let restored = try await client.data("restore", ["c": "Song", "objectId": .string(id)])
            #expect(restored["objectId"]?.stringValue == id)

            let info = try await client.data("server_info", [:])
            #expect(info["history"] == ["keepChanges": .null, "keepDays": .null])
            #expect(info["capabilities"]?.arrayValue?.contains("history") == true)

            // Bad input inside the envelope: Bmob's codes, nothing written.
            #expect(try await client.call("history", ["c": "Song", "data": ["op": "truncate"]]).code == 102)
            #expect(try await client.call("revert", ["c": "Song", "objectId": .string(id), "data": [:]]).code == 118)
            #expect(try await client.call("revert", ["c": "Song", "objectId": .string(id), "data": ["seq": 1, "ifUpdatedAt": 5]]).code == 107)
            let noId = try await client.call("restore", ["c": "Song"]).code
            #expect(noId == 103 || noId == 118, "\(noId)")
        }
    }

    @Test("revert and restore pass through beforeSave (which may change or refuse them) and afterSave")
    func triggers() async throws {
        let saved = Mutex<[JSONValue]>([])
        var functions = CloudFunctions()
        functions.on(.beforeSave, className: "Page") { request in
            // A frozen page may be edited, not created: a restore (which has no original) is refused.
            if request.object?["frozen"] == true, request.original == nil {
                throw CloudFunctionError(code: 142, message: "frozen pages cannot be created")
            }
            return ["checkedBy": "trigger"]
        }
        functions.on(.afterSave, className: "Page") { request in
            saved.withLock { $0.append(.object(request.object ?? [:])) }
            return nil
        }
        let server = try await TestServer.start(functions: functions)
        do {
            let id = try await server.create("Page", ["title": "first"])
            _ = try await server.call("PUT", "/1/classes/Page/\(id)", json: ["title": "second"])
            let entries = try #require(try await server.call("GET", "/1/history/Page/\(id)").json?["results"]?.arrayValue)
            let seq = try #require(entries.first?["seq"]?.int64Value)
            let reverted = try await server.call("POST", "/1/history/Page/\(id)/revert", json: ["seq": .int(seq)])
            #expect(reverted.status == 200, "\(reverted.text)")
            let page = try await server.call("GET", "/1/classes/Page/\(id)")
            #expect(page.json?["title"] == "first" && page.json?["checkedBy"] == "trigger")
            // afterSave runs detached, after the answer: the create's, the update's, then the revert's.
            #expect(try await eventually {
                saved.withLock { $0.filter { $0["objectId"]?.stringValue == id }.compactMap { $0["title"]?.stringValue }.sorted() }
                    == ["first", "first", "second"]
            })

            // A trigger that refuses the restored version refuses the restore: the object stays deleted.
            let frozen = try await server.create("Page", ["title": "cold"])
            #expect(try await server.call("PUT", "/1/classes/Page/\(frozen)", json: ["frozen": true]).status == 200)
            _ = try await server.call("DELETE", "/1/classes/Page/\(frozen)")
            let restore = try await server.call("POST", "/1/deleted/Page/\(frozen)/restore", json: [:])
            #expect(restore.json?["code"] == 142, "\(restore.text)")
            #expect(try await server.call("GET", "/1/classes/Page/\(frozen)").json?["code"] == 101)
            #expect(try await server.call("GET", "/1/deleted/Page").json?["results"]?.arrayValue?.count == 1)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("a revert and a restore reach realtime subscribers as an update and a create")
    func realtimeEvents() async throws {
        try await withTestServer { server in
            let id = try await server.create("Live", ["v": 1])
            _ = try await server.call("PUT", "/1/classes/Live/\(id)", json: ["v": 2])
            let seq = try #require(
                try await server.call("GET", "/1/history/Live/\(id)").json?["results"]?.arrayValue?.first?["seq"]?.int64Value)
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Live", .updateRow, objectId: id)
            try await client.subscribe("Live", .updateTable)
            #expect(try await server.call("POST", "/1/history/Live/\(id)/revert", json: ["seq": .int(seq)]).status == 200)
            var events = [try await client.nextEvent(), try await client.nextEvent()]
            #expect(Set(events.map(\.action)) == [.updateRow, .updateTable])
            #expect(events.allSatisfy { $0.data?["v"] == 1 })

            _ = try await server.call("DELETE", "/1/classes/Live/\(id)")
            #expect(try await server.call("POST", "/1/deleted/Live/\(id)/restore", json: [:]).status == 200)
            events = [try await client.nextEvent()]
            #expect(events.first?.action == .updateTable && events.first?.objectId == id)
        }
    }

    @Test("pruning spares changes younger than the grace period, and a subscriber's events keep coming, in order")
    func pruningKeepsFeeds() async throws {
        let clock = TestClock(start: 1_700_000_000_000)
        let server = try await TestServer.start(clock: clock.serverClock, history: JournalRetention(keepChanges: 1)) {
            $0.historyPruneGraceSeconds = 60
            $0.historyPruneIntervalSeconds = 0
        }
        do {
            let id = try await server.create("Tick", ["n": 0])
            let client = try await SocketIOTestClient.connect(server)
            try await client.subscribe("Tick", .updateRow, objectId: id)
            func history() async throws -> [JSONValue] {
                try await server.call("GET", "/1/history/Tick/\(id)").json?["results"]?.arrayValue ?? []
            }
            for n in 1...10 {
                #expect(try await server.call("PUT", "/1/classes/Tick/\(id)", json: ["n": .int(Int64(n))]).status == 200)
            }
            var seen: [JSONValue] = []
            for _ in 1...10 { seen.append(try await client.nextEvent().data?["n"] ?? .null) }
            // Every request may start a pruning; within the grace period none removes anything.
            for _ in 0..<5 {
                _ = try await history()
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await history().count == 11)

            clock.advance(milliseconds: 120_000)
            for n in 11...20 {
                #expect(try await server.call("PUT", "/1/classes/Tick/\(id)", json: ["n": .int(Int64(n))]).status == 200)
            }
            for _ in 11...20 { seen.append(try await client.nextEvent().data?["n"] ?? .null) }
            #expect(seen == (1...20).map { .int(Int64($0)) })
            // The old changes went; the ten young ones stay until they are old enough.
            var kept = 0
            _ = try await eventually {
                kept = try await history().count
                return kept == 10
            }
            #expect(kept == 10)
            #expect(try await history().first?["after"]?["n"] == 20)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
