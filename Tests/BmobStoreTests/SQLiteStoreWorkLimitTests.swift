import BmobStore
import BmobTesting
import BmobWire
import Testing
import BmobServerCodecs

/// ``SQLiteStore/WorkLimits``: a `$regex` evaluation and a whole read are held to a number of steps, and a
/// query over either ends with ``StoreError/Code/invalidQuery`` (Bmob 102) instead of holding its reader;
/// the reader then serves other reads. Limits here are small so that debug builds stay quick.
@Suite("SQLiteStore work limits", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLiteStoreWorkLimitTests {
    private typealias F = QueryFixtures

    /// About 1 MB of text.
    static let megabyte = String(repeating: "b", count: 1 << 20)

    /// Runs `body` with a store on a fresh file opened with `limits`, then closes it.
    private func withStore(
        readerCount: Int = 2,
        limits: SQLiteStore.WorkLimits = SQLiteStore.WorkLimits(),
        _ body: (SQLiteStore) async throws -> Void
    ) async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let store = try await SQLiteStore.open(
            .init(path: database.path, readerCount: readerCount, clock: { F.newYear }, workLimits: limits))
        do {
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Stores `objects` in `Doc`, whose `text` is a string, `n` a number and `tags` an array.
    private func seed(_ store: SQLiteStore, _ objects: [StoredObject]) async throws {
        try await store.write(caller: nil) { transaction in
            try transaction.recordFields(
                className: "Doc",
                fields: ["text": .init(type: .string), "n": .init(type: .number), "tags": .init(type: .array)])
            for object in objects { try transaction.insert(object) }
        }
    }

    private func doc(_ id: String, _ fields: [String: JSONValue]) -> StoredObject {
        F.object("Doc", id, fields)
    }

    private func regexQuery(_ pattern: String, options: String = "") -> FindQuery {
        FindQuery(
            className: "Doc", condition: .field(path: "text", constraints: [.matchesRegex(pattern: pattern, options: options)]))
    }

    /// The store error a read fails with, recorded as an issue when it succeeds.
    private func readError(
        _ store: SQLiteStore, _ query: FindQuery, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> StoreError? {
        do {
            let found = try await store.read { try $0.find(query) }
            Issue.record("expected the query to be refused, found \(found.count)", sourceLocation: sourceLocation)
        } catch let error as StoreError {
            return error
        } catch {
            Issue.record("expected a StoreError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func defaultsLeaveASimplePatternOnAMegabyteFieldAlone() async throws {
        try await withStore { store in
            try await seed(store, [doc("big", ["text": .string(Self.megabyte + "needle")]), doc("small", ["text": "hay"])])
            #expect(try await F.ids(store, regexQuery("needle$")) == ["big"])
            #expect(try await F.ids(store, regexQuery("^B+NEEDLE", options: "i")) == ["big"])
            #expect(try await F.ids(store, regexQuery("^hay$")) == ["small"])
        }
    }

    @Test func theProbeOnAMegabyteFieldIsRefusedWith102() async throws {
        // `(.*a){1000}b` took 13 s on a 1 MB field: its 4,001 instructions run over every character.
        let limits = SQLiteStore.WorkLimits(regexSteps: 500_000)
        try await withStore(readerCount: 1, limits: limits) { store in
            try await seed(store, [doc("big", ["text": .string(Self.megabyte)])])
            let error = await readError(store, regexQuery("(.*a){1000}b"))
            #expect(error?.code == .invalidQuery)
            #expect(error?.bmobCode == .invalidQuery)
            #expect(error?.message.hasPrefix("the query needs too much work: a $regex took more than 500000 steps") == true)
            // The one reader is free again.
            #expect(try await store.read { try $0.fetch(className: "Doc", objectId: "big") }?.objectId == "big")
        }
    }

    @Test func aPathologicalPatternOnAMegabyteHitsThePerEvaluationLimit() async throws {
        let limits = SQLiteStore.WorkLimits(regexSteps: 200_000)
        try await withStore(limits: limits) { store in
            try await seed(store, [doc("big", ["text": .string(String(repeating: "a", count: 1 << 20))])])
            for pattern in ["(a|aa)*c", "(a+)+$b", "(.*a){20}x"] {
                let error = await readError(store, regexQuery(pattern))
                #expect(error?.message.contains("a $regex took more than 200000 steps") == true, "\(pattern)")
            }
            // Within the limit the same field is matched.
            #expect(try await F.ids(store, regexQuery("^a{10}")) == ["big"])
        }
    }

    @Test func regexEvaluationsAddUpToThePerQueryLimit() async throws {
        // Each value is matched within its own limit, but 200 of them exceed the read's.
        let limits = SQLiteStore.WorkLimits(regexSteps: 1_000_000, queryWork: 100_000)
        try await withStore(limits: limits) { store in
            let text = String(repeating: "b", count: 1000)
            try await seed(store, (0..<200).map { doc("d\($0)", ["text": .string(text)]) })
            let error = await readError(store, regexQuery("x"))
            #expect(error?.code == .invalidQuery)
            #expect(error?.message.hasPrefix("the query needs too much work (more than 100000 steps)") == true)
            // One value is well within it.
            var one = regexQuery("x")
            one.condition = .and([.field(path: "objectId", constraints: [.equalTo("d1")]), one.condition!])
            #expect(try await F.ids(store, one) == [])
        }
    }

    @Test func aScanOverThePerQueryLimitIsRefusedAndTheReaderServesTheNextRead() async throws {
        let limits = SQLiteStore.WorkLimits(queryWork: 5_000)
        try await withStore(readerCount: 1, limits: limits) { store in
            try await seed(store, (0..<3000).map { doc("d\($0)", ["n": .int(Int64($0))]) })
            let scan = FindQuery(
                className: "Doc", condition: .field(path: "n", constraints: [.greaterThan(2998)]), limit: 1000)
            let error = await readError(store, scan)
            #expect(error?.message.hasPrefix("the query needs too much work (more than 5000 steps)") == true)
            // Counting the same is refused too; cheap reads on the one reader are not.
            await #expect(throws: StoreError.self) { try await store.read { try $0.count(scan) } }
            #expect(try await store.read { try $0.fetch(className: "Doc", objectId: "d7") }?.objectId == "d7")
            #expect(try await F.ids(store, FindQuery(className: "Doc", limit: 2)).count == 2)
        }
    }

    @Test func writesHoldRegexEvaluationsToTheirLimitToo() async throws {
        let limits = SQLiteStore.WorkLimits(regexSteps: 100_000)
        try await withStore(limits: limits) { store in
            try await seed(store, [doc("big", ["text": .string(String(repeating: "a", count: 200_000))])])
            do {
                _ = try await store.write(caller: nil) { try $0.find(regexQuery("(a|aa)*c")) }
                Issue.record("expected the write's query to be refused")
            } catch let error as StoreError {
                #expect(error.code == .invalidQuery)
            }
            // The writer goes on.
            try await seed(store, [doc("next", ["text": "ok"])])
            #expect(try await F.ids(store, regexQuery("^ok$")) == ["next"])
        }
    }

    @Test func refusedQueriesDoNotStallOthers() async throws {
        let limits = SQLiteStore.WorkLimits(regexSteps: 300_000)
        try await withStore(readerCount: 2, limits: limits) { store in
            try await seed(store, [doc("big", ["text": .string(String(repeating: "b", count: 200_000))]), doc("s", ["text": "x"])])
            let probe = regexQuery("(.*a){1000}b")
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        do {
                            _ = try await store.read { try $0.find(probe) }
                            return false
                        } catch let error as StoreError {
                            return error.code == .invalidQuery
                        }
                    }
                }
                for _ in 0..<6 {
                    group.addTask { try await F.ids(store, regexQuery("^x$")) == ["s"] }
                }
                var all: [Bool] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.count == 12)
            #expect(outcomes.allSatisfy { $0 })
        }
    }

    // MARK: - Size limits against SQLite's

    /// A `where` built by the parser, so that it is within ``WhereParser``'s limits.
    private func parsed(_ json: JSONValue) throws -> QueryCondition? {
        try WhereParser.parse(json)
    }

    @Test func theLargestWheresTheParserAcceptsRunOnSQLite() async throws {
        let limit = WhereParser.maximumConditions
        let levels = WhereParser.maximumSubQueryDepth
        let list = JSONValue.array((0..<WhereParser.maximumListLength).map { .int(Int64($0)) })
        func inQuery(_ inner: JSONValue, _ negated: Bool) -> JSONValue {
            ["owner": [negated ? "$notInQuery" : "$inQuery": ["className": "Doc", "where": inner]]]
        }
        // Sub-queries as deep as allowed, the innermost holding what is left of the conditions: a condition at
        // depth d counts d + 1, and each $inQuery one at its own depth (1 + 2 + 3 + 4).
        let outerWeight = (1...levels).reduce(0, +)
        var deepest: JSONValue = [
            "$or": .array((0..<((limit - outerWeight) / (levels + 1))).map { ["tags": ["$nin": [.int(Int64($0))]]] })
        ]
        for level in 0..<levels { deepest = inQuery(deepest, level % 2 == 0) }
        // An $or of `width` branches beside the sub-query at every depth: (width + 1) × (1 + … + 4) + 5 × width.
        let width = (limit - outerWeight) / (outerWeight + levels + 1)
        var everywhere: JSONValue = ["$or": .array((0..<width).map { ["n": ["$ne": .int(Int64($0))]] })]
        for _ in 0..<levels {
            everywhere = ["$or": .array([inQuery(everywhere, false)] + (0..<width).map { ["n": .int(Int64($0))] })]
        }
        let shapes: [JSONValue] = [
            ["$or": .array((0..<limit).map { ["n": ["$ne": .int(Int64($0))]] })],
            ["$or": .array((0..<limit).map { ["text": ["$regex": .string("^\($0)")]] })],
            ["tags": ["$all": .array((0..<limit).map { .int(Int64($0)) })]],
            ["$and": .array((0..<(limit / 2)).map { ["$or": [["n": .int(Int64($0))], ["tags": "x"]]] })],
            ["n": ["$in": list], "text": ["$nin": list]],
            deepest,
            everywhere,
        ]
        try await withStore { store in
            try await seed(store, [doc("a", ["n": 1, "text": "t", "tags": ["x"]])])
            for shape in shapes {
                var scoped = FindQuery(className: "Doc", condition: try parsed(shape))
                scoped.readers = ["*", "user1", "role:Admin"]
                let query = scoped
                // No error is what is checked: every shape compiles within SQLite's limits and runs.
                _ = try await store.read { transaction in
                    (try transaction.find(query), try transaction.count(query))
                }
            }
        }
    }

    @Test func queriesOverSQLiteLimitsThatSkipTheParsersAre102() async throws {
        // Built directly, as no parser would let them through: SQLite's own limits answer, as a client error.
        let deep = QueryCondition.or((0..<1500).map { .field(path: "n", constraints: [.equalTo(.int(Int64($0)))]) })
        let values = QueryCondition.field(
            path: "n", constraints: [.containedIn((0..<40_000).map { .int(Int64($0)) })])
        var columns = FindQuery(className: "Doc")
        columns.aggregation = Aggregation(groupBy: (0..<1001).map { "f\($0)" })
        var order = FindQuery(className: "Doc")
        order.order = (0..<2001).map { OrderKey(path: "f\($0)") }
        let queries: [(FindQuery, String)] = [
            (FindQuery(className: "Doc", condition: deep), "nested too deeply"),
            (FindQuery(className: "Doc", condition: values), "more than 32766 values"),
            (columns, "too many columns or terms"),
            (order, "too many columns or terms"),
        ]
        try await withStore { store in
            try await seed(store, [doc("a", ["n": 1])])
            for (query, words) in queries {
                do {
                    _ = try await store.read { transaction in
                        query.aggregation == nil ? try transaction.find(query).count : try transaction.aggregate(query).count
                    }
                    Issue.record("expected \(words)")
                } catch let error as StoreError {
                    #expect(error.code == .invalidQuery, "\(words): \(error)")
                    #expect(error.bmobCode == .invalidQuery)
                    #expect(error.message.contains(words), "\(error.message)")
                }
            }
        }
    }
}
