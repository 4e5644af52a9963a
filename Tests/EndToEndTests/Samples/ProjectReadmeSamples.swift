import BmobSDK
import BmobTesting
import BmobWire
import Testing

// The SDK sample in this project's README, compiled as written (the address and key substituted).

extension EndToEnd {
    @Suite("Project README: the Swift SDK sample")
    struct ProjectReadmeSamples {
        @Test("resetDomain, initialize, save, query")
        func readme() async throws {
            let server = try await SDKFixture.server()
            try await SDKFixture.emptyClasses("GameScore")

            Bmob.resetDomain(server.baseURL)               // your `bmob serve`
            try await Bmob.initialize(appKey: TestServer.applicationId)

            let gameScore = BmobObject(className: "GameScore")
            gameScore["playerName"] = "Player1"
            gameScore["score"] = 100
            try await gameScore.save()

            let query = BmobQuery(className: "GameScore")
                .whereKey("score", greaterThan: 50)
                .order(byDescending: "score")
            let topScores = try await query.find()

            // BQL, with `?` placeholders for values (objects, counts or statistics):
            let result = try await BmobQuery.find(bql: "select count(*), * from GameScore where score > ? limit 10", values: [50])
            let perPlayer = try await BmobQuery.statistics(bql: "select sum(score) from GameScore group by playerName")

            #expect(topScores.count == 1)
            #expect(topScores.first?.objectId == gameScore.objectId)
            #expect(result.count == 1)
            #expect(result.results.map(\.objectId) == [gameScore.objectId])
            #expect(perPlayer.count == 1)
            #expect(perPlayer.first?["playerName"] as? String == "Player1")

            let sameTopScores = try await BmobQuery(className: "GameScore")
                .whereKey("score", greaterThan: 50)
                .order(byDescending: "score")
                .find()
            #expect(sameTopScores.map(\.objectId) == topScores.map(\.objectId))
        }

        @Test("realtime events", .timeLimit(.minutes(1)))
        func realtime() async throws {
            let server = try await SDKFixture.server()
            Bmob.resetDomain(server.baseURL)
            try await Bmob.initialize(appKey: TestServer.applicationId)

            let event = BmobEvent()                          // keep it alive, e.g. in a view model
            let changes = event.eventStream()
            event.listenTableChange(className: "GameScore")  // creates and updates
            event.connect()
            defer { event.disconnect() }
            try await RealtimeFixture.waitUntilLive(event, server: server)
            let id = try await RealtimeFixture.create("GameScore", ["playerName": "Realtime", "score": 77], on: server)

            var seen: [String] = []
            for await change in changes {
                print(change.action ?? "", change.objectId ?? "", change.data?["score"] ?? "")
                guard change.className == "GameScore" else { continue }
                seen.append(change.action ?? "")
                if change.objectId == id {
                    #expect(change.action == "updateTable")
                    #expect(change.data?["score"] as? Int == 77)
                    break
                }
            }
            #expect(seen.last == "updateTable")
            try await RealtimeFixture.delete("GameScore", id, on: server)
        }
    }
}
