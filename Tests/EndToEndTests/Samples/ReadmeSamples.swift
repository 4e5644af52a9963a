import BmobSDK
import BmobWire
import Testing

// The README's (seeds/001) data and query samples, compiled as written. Its initialize line,
// `Bmob.initialize(appKey:)` without `try await`, cannot compile against an async throwing API; the fixture
// initializes instead.

extension EndToEnd {
    @Suite("Seed samples: README data and query")
    @MainActor
    struct ReadmeSamples {
        @Test("create, query, conditional query")
        func readme() async throws {
            try await SDKFixture.emptyClasses("GameScore")
            try await SDKFixture.restCreate("GameScore", ["playerName": "Player2", "score": 40])

            // 创建对象
            let gameScore = BmobObject(className: "GameScore")
            gameScore["playerName"] = "Player1"
            gameScore["score"] = 100
            try await gameScore.save()
            #expect(gameScore.objectId != nil)

            do {
                // 查询数据
                let query = BmobQuery(className: "GameScore")
                query.whereKey("playerName", equalTo: "Player1")
                let results = try await query.find()
                #expect(results.count == 1)
                #expect(results.first?["score"] as? Int == 100)
            }
            do {
                // 条件查询
                let query = BmobQuery(className: "GameScore")
                query.whereKey("score", greaterThan: 50)
                query.order(byDescending: "score")
                let topScores = try await query.find()
                #expect(topScores.compactMap { $0["playerName"] as? String } == ["Player1"])
            }
        }
    }
}
