import BmobSDK
import BmobWire
import Testing

extension EndToEnd {
    @Suite("BmobQuery methods")
    struct QueryMethodTests {
        /// Scores 10, 20, … 60 with a name and tags.
        private func seed() async throws {
            try await SDKFixture.emptyClasses("Score")
            for index in 1...6 {
                let tags: [JSONValue] = index % 2 == 0 ? ["even", "all"] : ["odd", "all"]
                try await SDKFixture.restCreate("Score", [
                    "name": .string("p\(index)"), "score": .int(Int64(index * 10)), "tags": .array(tags),
                    "group": .string(index <= 3 ? "low" : "high"),
                ])
            }
        }

        private func names(_ query: BmobQuery) async throws -> [String] {
            try await query.order(byAscending: "score").find().compactMap { $0["name"] as? String }
        }

        @Test("comparison operators")
        func comparisons() async throws {
            try await seed()
            #expect(try await names(BmobQuery(className: "Score").whereKey("score", lessThan: 30)) == ["p1", "p2"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("score", lessThanOrEqualTo: 30)) == ["p1", "p2", "p3"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("score", greaterThanOrEqualTo: 50)) == ["p5", "p6"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("score", greaterThan: 20).whereKey("score", lessThan: 50)) == ["p3", "p4"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("name", notEqualTo: "p1").whereKey("score", lessThan: 40)) == ["p2", "p3"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("score", equalTo: 40)) == ["p4"])
        }

        @Test("membership operators on scalar and array fields")
        func membership() async throws {
            try await seed()
            #expect(try await names(BmobQuery(className: "Score").whereKey("name", containedIn: ["p2", "p5", "zz"])) == ["p2", "p5"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("score", notContainedIn: [10, 20, 30, 40])) == ["p5", "p6"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("tags", containsAll: ["even", "all"])) == ["p2", "p4", "p6"])
            #expect(try await names(BmobQuery(className: "Score").whereKey("tags", equalTo: "odd")) == ["p1", "p3", "p5"])
        }

        @Test("sub-queries: matchesQuery and doesNotMatchQuery")
        func subQueries() async throws {
            try await seed()
            try await SDKFixture.emptyClasses("Entry")
            let high = try await BmobQuery(className: "Score").whereKey("group", equalTo: "high").find()
            let low = try await BmobQuery(className: "Score").whereKey("group", equalTo: "low").find()
            for (index, player) in (high.prefix(1) + low.prefix(2)).enumerated() {
                try await SDKFixture.restCreate("Entry", [
                    "n": .int(Int64(index)),
                    "player": ["__type": "Pointer", "className": "Score", "objectId": .string(player.objectId ?? "")],
                ])
            }
            let highPlayers = BmobQuery(className: "Score").whereKey("group", equalTo: "high")
            let matching = try await BmobQuery(className: "Entry").whereKey("player", matchesQuery: highPlayers).find()
            #expect(matching.compactMap { $0["n"] as? Int } == [0])
            let others = try await BmobQuery(className: "Entry").whereKey("player", doesNotMatchQuery: highPlayers)
                .order(byAscending: "n").find()
            #expect(others.compactMap { $0["n"] as? Int } == [1, 2])
        }

        @Test("order, addDescendingOrder, limit, skip, count ignoring paging")
        func orderingAndPaging() async throws {
            try await seed()
            let query = BmobQuery(className: "Score").order(byAscending: "group").addDescendingOrder("score").limit(4).skip(1)
            #expect(try await query.find().compactMap { $0["name"] as? String } == ["p5", "p4", "p3", "p2"])
            #expect(try await query.count() == 6)
            #expect(try await BmobQuery(className: "Score").whereKey("group", equalTo: "low").count() == 3)
        }

        @Test("get with selectKeys returns only the chosen fields")
        func getWithKeys() async throws {
            try await seed()
            let any = try #require(try await BmobQuery(className: "Score").find().first)
            let read = try await BmobQuery(className: "Score").selectKeys(["name"]).get(objectId: any.objectId ?? "")
            #expect(read["name"] as? String == any["name"] as? String)
            #expect(read["score"] == nil)
        }

        @Test("explicit aggregates with having")
        func aggregates() async throws {
            try await seed()
            let stats = try await BmobQuery(className: "Score")
                .statistics()
                .groupBy(["group"])
                .sum(["score"])
                .max(["score"])
                .having(["_sumScore": ["$gt": 100]])
                .statistics()
            #expect(stats.count == 1)
            #expect(stats.first?["group"] as? String == "high")
            #expect(stats.first?["_sumScore"] as? Int == 150)
            #expect(stats.first?["_maxScore"] as? Int == 60)
        }

        @Test("a bad regular expression is the server's query error, not a crash")
        func badRegex() async throws {
            try await seed()
            await #expect {
                _ = try await BmobQuery(className: "Score").whereKey("name", matchesRegex: "(unclosed").find()
            } throws: { error in
                guard case BmobError.serverError = error else { return false }
                return true
            }
        }

        @Test("queries on a class that does not exist find nothing")
        func missingClass() async throws {
            _ = try await SDKFixture.server()
            #expect(try await BmobQuery(className: "NeverWritten").find().isEmpty)
            #expect(try await BmobQuery(className: "NeverWritten").count() == 0)
        }
    }
}
