import BmobSDK
import BmobTesting
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

            #expect(topScores.count == 1)
            #expect(topScores.first?.objectId == gameScore.objectId)

            let sameTopScores = try await BmobQuery(className: "GameScore")
                .whereKey("score", greaterThan: 50)
                .order(byDescending: "score")
                .find()
            #expect(sameTopScores.map(\.objectId) == topScores.map(\.objectId))
        }
    }
}
