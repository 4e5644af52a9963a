import BmobData
import BmobSDK
import BmobWire
import Foundation
import Testing

extension EndToEnd {
    @Suite("BmobQuery: BQL over the native protocol")
    struct BQLQueryTests {
        /// Scores 10, 20, … 60, three players in two groups.
        private func seed() async throws {
            try await SDKFixture.emptyClasses("BQLScore")
            for index in 1...6 {
                try await SDKFixture.restCreate("BQLScore", [
                    "name": .string("p\(index)"), "score": .int(Int64(index * 10)),
                    "team": .string(index <= 3 ? "low" : "high"),
                ])
            }
        }

        @Test("objects, placeholders, counts, limit and order")
        func objectsAndCounts() async throws {
            try await seed()
            let top = try await BmobQuery.find(bql: "select * from BQLScore where score > ? order by -score limit ?", values: [25, 2])
            #expect(top.className == "BQLScore")
            #expect(top.results.compactMap { $0["name"] as? String } == ["p6", "p5"])
            #expect(top.results.allSatisfy { $0.className == "BQLScore" && $0.objectId != nil })
            #expect(top.count == nil)

            let counted = try await BmobQuery.find(bql: "select count(*) from BQLScore where team = ?", values: ["low"])
            #expect(counted.count == 3)
            #expect(counted.results.isEmpty)

            let both = try await BmobQuery.find(bql: "select count(*), name from BQLScore where name in (?, ?) order by name", values: ["p1", "p4"])
            #expect(both.count == 2)
            #expect(both.results.compactMap { $0["name"] as? String } == ["p1", "p4"])
            // A placeholder's value is a value, never BQL: a quote in it matches nothing instead of escaping.
            let injected = try await BmobQuery.find(bql: "select * from BQLScore where name = ?", values: ["p1' or name != '"])
            #expect(injected.results.isEmpty)
        }

        @Test("statistics: sums and counts per group, having")
        func statistics() async throws {
            try await seed()
            let rows = try await BmobQuery.statistics(
                bql: "select sum(score), count(*) from BQLScore where score > ? group by team having _sumScore > 100", values: [5])
            #expect(rows.count == 1)
            #expect(rows.first?["team"] as? String == "high")
            #expect((rows.first?["_sumScore"] as? NSNumber)?.intValue == 150)
            #expect((rows.first?["_count"] as? NSNumber)?.intValue == 3)
        }

        @Test("bad statements: refused by the server with 601, or before sending when empty or too long")
        func badStatements() async throws {
            await #expect(throws: BmobError.self) { _ = try await BmobQuery.find(bql: "  ") }
            let long = "select * from BQLScore where name = '" + String(repeating: "x", count: 5_000) + "'"
            do {
                _ = try await BmobQuery.find(bql: long)
                Issue.record("an oversized statement was sent")
            } catch let error as BmobError {
                guard case .invalidParameter = error else { Issue.record("\(error)"); return }
            }
            for statement in ["select * from", "delete from BQLScore", "select * from BQLScore where score > ?"] {
                do {
                    _ = try await BmobQuery.find(bql: statement)
                    Issue.record("'\(statement)' was accepted")
                } catch let error as BmobError {
                    guard case .serverError(let code, _) = error else { Issue.record("\(statement): \(error)"); continue }
                    #expect(code == 601, "\(statement)")
                }
            }
        }

        @Test("the class is read from the statement as the server reads it")
        func classNameOfStatements() {
            #expect(BmobQuery.className(ofBQL: "select * from GameScore where a = 1") == "GameScore")
            #expect(BmobQuery.className(ofBQL: "SELECT name FROM _User") == "_User")
            #expect(BmobQuery.className(ofBQL: "select * from Note where title = 'from Other'") == "Note")
            #expect(BmobQuery.className(ofBQL: "select 'from X' , * from Y") == "Y")
            #expect(BmobQuery.className(ofBQL: "select *") == nil)
        }
    }
}
