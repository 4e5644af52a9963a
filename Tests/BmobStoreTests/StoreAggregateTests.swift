import BmobStore
import BmobWire
import Testing

/// Aggregates (`groupby`, `groupcount`, `sum`, `average`, `max`, `min`, `having`) against real SQLite files.
@Suite("Store aggregates")
struct StoreAggregateTests {
    private typealias F = QueryFixtures

    /// | id | amount | region | created             | sold (Date)         | paid  |
    /// |----|--------|--------|---------------------|---------------------|-------|
    /// | s1 | 10     | north  | 2024-01-01 10:00:00 | 2024-03-01 08:00:00 | true  |
    /// | s2 | 20     | north  | 2024-01-01 23:59:59 | 2024-03-01 20:00:00 | false |
    /// | s3 | 5      | south  | 2024-01-02 00:00:01 | 2024-03-02 00:00:00 | true  |
    /// | s4 | 7      | south  | 2024-01-03 01:00:00 | –                   | true  |
    /// | s5 | 100    | east   | 2024-01-03 02:00:00 | 2024-03-05 00:00:00 | –     |
    private static let sales: [StoredObject] = [
        F.object(
            "Sale", "s1", at: F.newYear + 10 * F.hour,
            ["amount": 10, "region": "north", "sold": F.date("2024-03-01 08:00:00"), "paid": true]),
        F.object(
            "Sale", "s2", at: F.newYear + F.day - 1000,
            ["amount": 20, "region": "north", "sold": F.date("2024-03-01 20:00:00"), "paid": false]),
        F.object(
            "Sale", "s3", at: F.newYear + F.day + 1000,
            ["amount": 5, "region": "south", "sold": F.date("2024-03-02 00:00:00"), "paid": true]),
        F.object("Sale", "s4", at: F.newYear + 2 * F.day + F.hour, ["amount": 7, "region": "south", "paid": true]),
        F.object(
            "Sale", "s5", at: F.newYear + 2 * F.day + 2 * F.hour,
            ["amount": 100, "region": "east", "sold": F.date("2024-03-05 00:00:00")]),
    ]

    private static func seed(_ store: any Store) async throws {
        try await store.write(caller: nil) { transaction in
            try transaction.recordFields(
                className: "Sale",
                fields: [
                    "amount": .init(type: .number), "region": .init(type: .string), "sold": .init(type: .date),
                    "paid": .init(type: .boolean),
                ])
            for sale in sales {
                try transaction.insert(sale)
            }
        }
    }

    private static func aggregate(
        _ store: any Store,
        _ aggregation: Aggregation,
        condition: QueryCondition? = nil,
        order: [OrderKey] = [],
        limit: Int = 100,
        skip: Int = 0
    ) async throws -> [[String: JSONValue]] {
        let query = FindQuery(
            className: "Sale", condition: condition, order: order, limit: limit, skip: skip, aggregation: aggregation)
        return try await store.read { try $0.aggregate(query) }
    }

    @Test(arguments: StoreEngine.allCases)
    func groupCountAndSumOrderedByResultNameInAnyCase(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await Self.seed(store)
            let rows = try await Self.aggregate(
                store, Aggregation(groupBy: ["region"], groupCount: true, sum: ["amount"]),
                order: [OrderKey(path: "_sumamount", descending: true)])
            #expect(
                rows == [
                    ["region": "east", "_count": 1, "_sumAmount": 100],
                    ["region": "north", "_count": 2, "_sumAmount": 30],
                    ["region": "south", "_count": 2, "_sumAmount": 12],
                ])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func havingMatchesResultNamesCaseInsensitively(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await Self.seed(store)
            let having = QueryCondition.field(path: "_SumAmount", constraints: [.greaterThan(20)])
            let rows = try await Self.aggregate(
                store, Aggregation(groupBy: ["region"], sum: ["amount"], having: having),
                order: [OrderKey(path: "region")])
            #expect(rows == [["region": "east", "_sumAmount": 100], ["region": "north", "_sumAmount": 30]])

            let counted = try await Self.aggregate(
                store,
                Aggregation(
                    groupBy: ["region"], groupCount: true,
                    having: .or([
                        .field(path: "_COUNT", constraints: [.equalTo(1)]),
                        .field(path: "region", constraints: [.equalTo("south")]),
                    ])),
                order: [OrderKey(path: "REGION", descending: true)])
            #expect(counted == [["region": "south", "_count": 2], ["region": "east", "_count": 1]])

            let unknown = await #expect(throws: StoreError.self) {
                try await Self.aggregate(
                    store,
                    Aggregation(groupBy: ["region"], having: .field(path: "_sumOther", constraints: [.greaterThan(1)])))
            }
            #expect(unknown?.bmobCode == .invalidQuery)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func createdAtGroupsByDay(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await Self.seed(store)
            let rows = try await Self.aggregate(
                store, Aggregation(groupBy: ["createdAt"], groupCount: true, sum: ["amount"]),
                order: [OrderKey(path: "createdAt")])
            #expect(
                rows == [
                    ["createdAt": "2024-01-01", "_count": 2, "_sumAmount": 30],
                    ["createdAt": "2024-01-02", "_count": 1, "_sumAmount": 5],
                    ["createdAt": "2024-01-03", "_count": 2, "_sumAmount": 107],
                ])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func dateFieldGroupsByDay(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await Self.seed(store)
            let rows = try await Self.aggregate(
                store, Aggregation(groupBy: ["sold"], groupCount: true), order: [OrderKey(path: "sold")])
            #expect(
                rows == [
                    ["sold": nil, "_count": 1],
                    ["sold": "2024-03-01", "_count": 2],
                    ["sold": "2024-03-02", "_count": 1],
                    ["sold": "2024-03-05", "_count": 1],
                ])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func groupByAloneGivesDistinctValues(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await Self.seed(store)
            #expect(
                try await Self.aggregate(store, Aggregation(groupBy: ["region"]), order: [OrderKey(path: "region")])
                    == [["region": "east"], ["region": "north"], ["region": "south"]])
            // JSON types survive grouping: booleans stay booleans, a missing field is null.
            #expect(
                try await Self.aggregate(store, Aggregation(groupBy: ["paid"]), order: [OrderKey(path: "paid")])
                    == [["paid": nil], ["paid": false], ["paid": true]])
            #expect(
                try await Self.aggregate(
                    store, Aggregation(groupBy: ["region", "paid"]),
                    order: [OrderKey(path: "region"), OrderKey(path: "paid")])
                    == [
                        ["region": "east", "paid": nil], ["region": "north", "paid": false],
                        ["region": "north", "paid": true], ["region": "south", "paid": true],
                    ])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func averageMaxMinWithoutGroups(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await Self.seed(store)
            let rows = try await Self.aggregate(
                store,
                Aggregation(average: ["amount"], max: ["amount", "createdAt"], min: ["amount", "sold"]))
            #expect(
                rows == [
                    [
                        "_avgAmount": 28.4, "_maxAmount": 100, "_maxCreatedAt": "2024-01-03 02:00:00", "_minAmount": 5,
                        "_minSold": F.date("2024-03-01 08:00:00"),
                    ]
                ])
            let north = try await Self.aggregate(
                store, Aggregation(groupCount: true, sum: ["amount"]),
                condition: .field(path: "region", constraints: [.equalTo("north")]))
            #expect(north == [["_count": 2, "_sumAmount": 30]])
            let none = try await Self.aggregate(
                store, Aggregation(sum: ["amount"]), condition: .field(path: "region", constraints: [.equalTo("west")]))
            #expect(none == [["_sumAmount": 0]])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func limitSkipAndMissingClass(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await Self.seed(store)
            #expect(
                try await Self.aggregate(
                    store, Aggregation(groupBy: ["region"]), order: [OrderKey(path: "region")], limit: 1, skip: 1)
                    == [["region": "north"]])
            let missing = FindQuery(className: "Nothing", aggregation: Aggregation(groupCount: true))
            #expect(try await store.read { try $0.aggregate(missing) } == [])
            let notAggregate = await #expect(throws: StoreError.self) {
                try await store.read { try $0.aggregate(FindQuery(className: "Sale")) }
            }
            #expect(notAggregate?.code == .invalidQuery)
        }
    }
}
