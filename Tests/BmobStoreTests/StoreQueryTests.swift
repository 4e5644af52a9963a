import BmobStore
import BmobWire
import Testing

/// Every `where` operator against real SQLite files, over ``QueryFixtures/games``.
@Suite("Store queries")
struct StoreQueryTests {
    private typealias F = QueryFixtures

    @Test(arguments: StoreEngine.allCases)
    func comparisonsAndEquality(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            #expect(try await F.games(store, "score", .equalTo(20)) == ["g2"])
            #expect(try await F.games(store, "score", .equalTo(20.0)) == ["g2"])
            #expect(try await F.games(store, "score", .lessThan(20)) == ["g1"])
            #expect(try await F.games(store, "score", .lessThanOrEqualTo(20)) == ["g1", "g2"])
            #expect(try await F.games(store, "score", .greaterThan(10)) == ["g2", "g3"])
            #expect(try await F.games(store, "score", .greaterThanOrEqualTo(10), .lessThan(30)) == ["g1", "g2"])
            #expect(try await F.games(store, "name", .equalTo("beta")) == ["g2"])
            #expect(try await F.games(store, "done", .equalTo(true)) == ["g1"])
            #expect(try await F.games(store, "done", .equalTo(false)) == ["g2"])
            #expect(try await F.games(store, "objectId", .equalTo("g3")) == ["g3"])
            #expect(try await F.games(store, "objectId", .greaterThan("g2")) == ["g3", "g4"])
            #expect(try await F.games(store, "meta", .equalTo(["k": 1])) == ["g1"])
            #expect(try await F.games(store, "meta.k", .equalTo(2)) == ["g2"])
            #expect(try await F.games(store, "score", .equalTo(nil)) == ["g4"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func notEqualAndNotInMatchMissingFields(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            #expect(try await F.games(store, "done", .notEqualTo(true)) == ["g2", "g3", "g4"])
            #expect(try await F.games(store, "score", .notEqualTo(10)) == ["g2", "g3", "g4"])
            #expect(try await F.games(store, "score", .containedIn([10, 30, 99])) == ["g1", "g3"])
            #expect(try await F.games(store, "score", .containedIn([])) == [])
            #expect(try await F.games(store, "score", .notContainedIn([10])) == ["g2", "g3", "g4"])
            #expect(try await F.games(store, "score", .notContainedIn([])) == ["g1", "g2", "g3", "g4"])
            #expect(try await F.games(store, "score", .notEqualTo(nil)) == ["g1", "g2", "g3"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func exists(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            #expect(try await F.games(store, "birthday", .exists(true)) == ["g1", "g2"])
            #expect(try await F.games(store, "birthday", .exists(false)) == ["g3", "g4"])
            #expect(try await F.games(store, "tags", .exists(false)) == ["g4"])
            #expect(try await F.games(store, "createdAt", .exists(true)) == ["g1", "g2", "g3", "g4"])
            #expect(try await F.games(store, "objectId", .exists(false)) == [])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func regex(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            #expect(try await F.games(store, "name", .matchesRegex(pattern: "^[ab]", options: "")) == ["g2"])
            #expect(try await F.games(store, "name", .matchesRegex(pattern: "^[ab]", options: "i")) == ["g1", "g2"])
            #expect(try await F.games(store, "name", .matchesRegex(pattern: "MM", options: "i")) == ["g3"])
            #expect(try await F.games(store, "name", .matchesRegex(pattern: "^[A-Z]", options: "")) == ["g1", "g3"])
            // Only strings match: numbers, objects and missing fields do not.
            #expect(try await F.games(store, "score", .matchesRegex(pattern: "1", options: "")) == [])
            #expect(try await F.games(store, "meta", .matchesRegex(pattern: "k", options: "")) == [])
            #expect(try await F.games(store, "tags", .matchesRegex(pattern: "^a", options: "")) == ["g1"])
            #expect(try await F.games(store, "objectId", .matchesRegex(pattern: "[34]", options: "")) == ["g3", "g4"])
            // The compiled pattern is reused across rows and statements with other patterns.
            #expect(try await F.games(store, "name", .matchesRegex(pattern: "ta$", options: "")) == ["g2", "g4"])

            let error = await #expect(throws: StoreError.self) {
                try await F.games(store, "name", .matchesRegex(pattern: "(unclosed", options: ""))
            }
            #expect(error?.code == .invalidQuery)
            #expect(error?.bmobCode == .invalidQuery)
            let lookahead = await #expect(throws: StoreError.self) {
                try await F.games(store, "name", .matchesRegex(pattern: "a(?=b)", options: ""))
            }
            #expect(lookahead?.bmobCode == .invalidQuery)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func arrays(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            #expect(try await F.games(store, "tags", .equalTo("b")) == ["g1", "g2"])
            #expect(try await F.games(store, "tags", .equalTo(["c"])) == ["g3"])
            #expect(try await F.games(store, "tags", .notEqualTo("b")) == ["g3", "g4"])
            #expect(try await F.games(store, "tags", .containedIn(["a", "c"])) == ["g1", "g2", "g3"])
            #expect(try await F.games(store, "tags", .notContainedIn(["c"])) == ["g1", "g4"])
            #expect(try await F.games(store, "tags", .containsAll(["b", "c"])) == ["g2"])
            #expect(try await F.games(store, "tags", .containsAll(["c"])) == ["g2", "g3"])
            #expect(try await F.games(store, "tags", .greaterThan("b")) == ["g2", "g3"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func dates(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            #expect(try await F.games(store, "birthday", .greaterThan(F.date("2020-06-01 00:00:00"))) == ["g2"])
            // Any form BmobDateFormat parses is normalised to the stored UTC text first.
            #expect(try await F.games(store, "birthday", .equalTo(F.date("2020-01-01T08:00:00+08:00"))) == ["g1"])
            #expect(try await F.games(store, "birthday", .equalTo(F.date("2020-01-01T00:00:00.000Z"))) == ["g1"])
            #expect(try await F.games(store, "birthday", .lessThan("2021-01-01")) == ["g1"])
            #expect(
                try await F.games(
                    store, "birthday", .containedIn([F.date("2021-06-01 00:00:00"), F.date("1999-01-01")]))
                    == ["g2"])
            #expect(
                try await F.games(store, "birthday", .notEqualTo(F.date("2020-01-01 00:00:00"))) == ["g2", "g3", "g4"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func systemDateColumns(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            // g1 at 10:00:00.000 and g2 at 10:00:00.500 both show as "2024-01-01 10:00:00".
            #expect(try await F.games(store, "createdAt", .equalTo(F.date("2024-01-01 10:00:00"))) == ["g1", "g2"])
            #expect(try await F.games(store, "createdAt", .equalTo(F.date("2024-01-01T10:00:00.500Z"))) == ["g2"])
            #expect(try await F.games(store, "createdAt", .greaterThan(F.date("2024-01-01 10:00:00"))) == ["g3", "g4"])
            #expect(
                try await F.games(store, "createdAt", .greaterThanOrEqualTo(F.date("2024-01-01 10:00:00")))
                    == ["g1", "g2", "g3", "g4"])
            #expect(
                try await F.games(store, "createdAt", .lessThanOrEqualTo(F.date("2024-01-01 10:00:00"))) == [
                    "g1", "g2",
                ])
            // JavaScript sends updatedAt as a plain string.
            #expect(try await F.games(store, "updatedAt", .lessThan("2024-01-02 00:00:00")) == ["g1", "g2"])
            #expect(try await F.games(store, "updatedAt", .greaterThan("2024-01-02T10:00:00+08:00")) == ["g3", "g4"])
            #expect(try await F.games(store, "createdAt", .notEqualTo(F.date("2024-01-01 10:00:00"))) == ["g3", "g4"])
            #expect(
                try await F.games(
                    store, "createdAt", .containedIn([F.date("2024-01-02 09:00:00"), F.date("2024-01-02 12:00:00")]))
                    == ["g3", "g4"])
            let error = await #expect(throws: StoreError.self) {
                try await F.games(store, "createdAt", .greaterThan("not a date"))
            }
            #expect(error?.bmobCode == .invalidQuery)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func pointers(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            #expect(try await F.games(store, "owner", .equalTo(F.pointer("_User", "u1"))) == ["g1", "g3"])
            #expect(try await F.games(store, "owner", .equalTo(F.pointer("Team", "u1"))) == [])
            #expect(try await F.games(store, "owner", .notEqualTo(F.pointer("_User", "u1"))) == ["g2", "g4"])
            #expect(
                try await F.games(store, "owner", .containedIn([F.pointer("_User", "u2"), F.pointer("_User", "u9")]))
                    == ["g2"])
            #expect(
                try await F.games(store, "owner", .notContainedIn([F.pointer("_User", "u2")])) == ["g1", "g3", "g4"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func inQueryAndNotInQuery(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            let parisians = SubQuery(
                className: "_User", condition: .field(path: "city", constraints: [.equalTo("Paris")]))
            #expect(try await F.games(store, "owner", .matchesQuery(parisians)) == ["g1", "g3"])
            #expect(try await F.games(store, "owner", .doesNotMatchQuery(parisians)) == ["g2", "g4"])
            let missing = SubQuery(className: "Nothing", condition: nil)
            #expect(try await F.games(store, "owner", .matchesQuery(missing)) == [])
            #expect(try await F.games(store, "owner", .doesNotMatchQuery(missing)) == ["g1", "g2", "g3", "g4"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func selectAndDontSelect(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            func users(_ constraint: FieldConstraint) async throws -> [String] {
                try await F.ids(
                    store, FindQuery(className: "_User", condition: .field(path: "city", constraints: [constraint]))
                )
                .sorted()
            }
            let teams = SubQuery(className: "Team", condition: nil)
            #expect(try await users(.matchesKeyInQuery(key: "city", query: teams)) == ["u1"])
            #expect(try await users(.doesNotMatchKeyInQuery(key: "city", query: teams)) == ["u2", "u3"])
            let berlin = SubQuery(className: "Team", condition: .field(path: "city", constraints: [.equalTo("Berlin")]))
            #expect(try await users(.matchesKeyInQuery(key: "city", query: berlin)) == [])
            let missing = SubQuery(className: "Nothing", condition: nil)
            #expect(try await users(.matchesKeyInQuery(key: "city", query: missing)) == [])
            #expect(try await users(.doesNotMatchKeyInQuery(key: "city", query: missing)) == ["u1", "u2", "u3"])
        }
    }

    /// `$select` between fields the engines read differently (a Date's `iso` or a Pointer's `objectId` as text,
    /// `createdAt` as milliseconds, plain values as JSON): the same answers on both, never a type error.
    @Test(arguments: StoreEngine.allCases)
    func selectAcrossKindsOfFields(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "Note", fields: ["text": .init(type: .string), "n": .init(type: .number)])
                try transaction.insert(F.object("Note", "n1", ["text": "2020-01-01 00:00:00", "n": .int(F.newYear + 10 * F.hour)]))
                try transaction.insert(F.object("Note", "n2", ["text": "u2", "n": 20]))
            }
            let notes = SubQuery(className: "Note", condition: nil)
            let parisians = SubQuery(className: "_User", condition: .field(path: "city", constraints: [.equalTo("Paris")]))
            // A Date against a string, a Pointer against objectId, and objectId against a Pointer.
            #expect(try await F.games(store, "birthday", .matchesKeyInQuery(key: "text", query: notes)) == ["g1"])
            #expect(try await F.games(store, "owner", .matchesKeyInQuery(key: "objectId", query: parisians)) == ["g1", "g3"])
            #expect(try await F.games(store, "owner", .matchesKeyInQuery(key: "text", query: notes)) == ["g2"])
            let games = SubQuery(className: "Game", condition: nil)
            let owners = try await F.ids(
                store, FindQuery(className: "_User", condition: .field(path: "objectId", constraints: [.matchesKeyInQuery(key: "owner", query: games)])))
            #expect(owners.sorted() == ["u1", "u2"])
            // createdAt (milliseconds) against a number and against text.
            #expect(try await F.games(store, "createdAt", .matchesKeyInQuery(key: "n", query: notes)) == ["g1"])
            #expect(try await F.games(store, "createdAt", .matchesKeyInQuery(key: "text", query: notes)) == [])
            // Values of different JSON types never match; none fails.
            #expect(try await F.games(store, "name", .matchesKeyInQuery(key: "birthday", query: games)) == [])
            #expect(try await F.games(store, "score", .matchesKeyInQuery(key: "n", query: notes)) == ["g2"])
            #expect(
                try await F.games(store, "birthday", .doesNotMatchKeyInQuery(key: "text", query: notes))
                    == ["g2", "g3", "g4"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func relations(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            let related = FindQuery(
                className: "_User",
                condition: .relatedTo(object: PointerValue(className: "Game", objectId: "g1"), key: "likes"))
            #expect(try await F.ids(store, related).sorted() == ["u1", "u2"])
            #expect(try await store.read { try $0.count(related) } == 2)
            #expect(try await F.games(store, "likes", .equalTo(F.pointer("_User", "u2"))) == ["g1", "g2"])
            #expect(try await F.games(store, "likes", .equalTo(F.pointer("_User", "u1"))) == ["g1"])
            #expect(try await F.games(store, "likes", .notEqualTo(F.pointer("_User", "u1"))) == ["g2", "g3", "g4"])
            #expect(
                try await F.games(store, "likes", .containsAll([F.pointer("_User", "u1"), F.pointer("_User", "u2")]))
                    == ["g1"])
            #expect(
                try await F.games(store, "likes", .containedIn([F.pointer("_User", "u1"), F.pointer("_User", "u3")]))
                    == ["g1"])
            let bob = SubQuery(className: "_User", condition: .field(path: "username", constraints: [.equalTo("bob")]))
            #expect(try await F.games(store, "likes", .matchesQuery(bob)) == ["g1", "g2"])
            #expect(try await F.games(store, "likes", .doesNotMatchQuery(bob)) == ["g3", "g4"])

            #expect(
                try await store.read { try $0.relationTargets(className: "Game", objectId: "g1", key: "likes") }
                    == [
                        PointerValue(className: "_User", objectId: "u1"),
                        PointerValue(className: "_User", objectId: "u2"),
                    ])
            try await store.write(caller: nil) { transaction in
                try transaction.removeRelation(
                    className: "Game", objectId: "g1", key: "likes",
                    targets: [
                        PointerValue(className: "_User", objectId: "u1"),
                        PointerValue(className: "_User", objectId: "u3"),
                    ])
                // Adding a member twice keeps it once.
                try transaction.addRelation(
                    className: "Game", objectId: "g2", key: "likes",
                    targets: [PointerValue(className: "_User", objectId: "u2")])
            }
            #expect(try await F.ids(store, related) == ["u2"])
            #expect(
                try await store.read { try $0.relationTargets(className: "Game", objectId: "g2", key: "likes") }
                    == [PointerValue(className: "_User", objectId: "u2")])
            // Deleting the owner deletes the rows it owns.
            _ = try await store.write(caller: nil) { try $0.delete(className: "Game", objectId: "g1") }
            #expect(try await F.ids(store, related) == [])
            // Dropping the target class deletes the memberships pointing at it.
            try await store.write(caller: nil) { try $0.dropClass(className: "_User") }
            #expect(
                try await store.read { try $0.relationTargets(className: "Game", objectId: "g2", key: "likes") } == [])

            let badKey = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.addRelation(className: "Game", objectId: "g2", key: "bad key", targets: [])
                }
            }
            #expect(badKey?.code == .invalidFieldName)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func relationRowsRollBackWithTheirWrite(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            await #expect(throws: Rollback.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.addRelation(
                        className: "Game", objectId: "g3", key: "likes",
                        targets: [PointerValue(className: "_User", objectId: "u3")])
                    #expect(try transaction.relationTargets(className: "Game", objectId: "g3", key: "likes").count == 1)
                    throw Rollback()
                }
            }
            #expect(
                try await store.read { try $0.relationTargets(className: "Game", objectId: "g3", key: "likes") } == [])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func nearSphereFiltersAndOrdersByDistance(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            func near(_ latitude: Double, _ longitude: Double, kilometers: Double?, order: [OrderKey] = []) async throws
                -> [String]
            {
                let point = GeoPointValue(latitude: latitude, longitude: longitude)
                return try await F.ids(
                    store,
                    FindQuery(
                        className: "Game",
                        condition: .field(
                            path: "loc",
                            constraints: [.nearSphere(point, maxDistanceRadians: kilometers.map { $0 / 6371 })]),
                        order: order))
            }
            // Default 100 km: g2 is 11 km away, g1 67 km, g3 156 km.
            #expect(try await near(0, 0.6, kilometers: nil) == ["g2", "g1"])
            #expect(try await near(0, 0.6, kilometers: 300) == ["g2", "g1", "g3"])
            #expect(try await near(0, 0.6, kilometers: 20) == ["g2"])
            #expect(try await near(0, 0, kilometers: nil) == ["g1", "g2"])
            #expect(try await near(0, 2.1, kilometers: 1000) == ["g3", "g2", "g1"])
            // An explicit order wins over distance.
            #expect(
                try await near(0, 0.6, kilometers: 300, order: [OrderKey(path: "score", descending: true)]) == [
                    "g3", "g2", "g1",
                ])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func withinBox(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            let box = FieldConstraint.withinBox(
                southwest: GeoPointValue(latitude: -1, longitude: -1),
                northeast: GeoPointValue(latitude: 1, longitude: 1))
            #expect(try await F.games(store, "loc", box) == ["g1", "g2"])
            let east = FieldConstraint.withinBox(
                southwest: GeoPointValue(latitude: -1, longitude: 1.5),
                northeast: GeoPointValue(latitude: 1, longitude: 3))
            #expect(try await F.games(store, "loc", east) == ["g3"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func andOrNesting(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            let condition = QueryCondition.or([
                .field(path: "score", constraints: [.equalTo(10)]),
                .and([
                    .field(path: "score", constraints: [.greaterThan(15)]),
                    .field(path: "name", constraints: [.equalTo("Gamma")]),
                ]),
                .and([.field(path: "name", constraints: [.equalTo("delta")]), .or([])]),
            ])
            #expect(
                try await F.ids(store, FindQuery(className: "Game", condition: condition)).sorted() == ["g1", "g3"])
            let both = QueryCondition.and([
                .field(path: "tags", constraints: [.equalTo("c")]),
                .or([
                    .field(path: "done", constraints: [.exists(false)]),
                    .field(path: "score", constraints: [.lessThan(15)]),
                ]),
            ])
            #expect(try await F.ids(store, FindQuery(className: "Game", condition: both)) == ["g3"])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func orderLimitSkipAndCount(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            func ids(_ order: [OrderKey], limit: Int = 100, skip: Int = 0) async throws -> [String] {
                try await F.ids(store, FindQuery(className: "Game", order: order, limit: limit, skip: skip))
            }
            #expect(try await ids([OrderKey(path: "score", descending: true)]) == ["g3", "g2", "g1", "g4"])
            #expect(try await ids([OrderKey(path: "name")]) == ["g1", "g3", "g2", "g4"])
            #expect(try await ids([OrderKey(path: "createdAt", descending: true)]) == ["g4", "g3", "g2", "g1"])
            #expect(
                try await ids([OrderKey(path: "birthday", descending: true), OrderKey(path: "objectId")]) == [
                    "g2", "g1", "g3", "g4",
                ])
            // Missing values sort first ascending (SQLite's NULL order).
            #expect(
                try await ids([OrderKey(path: "done"), OrderKey(path: "score", descending: true)]) == [
                    "g3", "g4", "g2", "g1",
                ])
            #expect(try await ids([OrderKey(path: "score")], limit: 2, skip: 1) == ["g1", "g2"])
            #expect(try await ids([OrderKey(path: "score")], limit: 0) == [])

            let query = FindQuery(
                className: "Game", condition: .field(path: "score", constraints: [.greaterThan(10)]), limit: 1, skip: 5)
            #expect(try await store.read { try $0.count(query) } == 2)
            #expect(try await store.read { try $0.count(FindQuery(className: "Game")) } == 4)
            #expect(try await store.read { try $0.count(FindQuery(className: "Nothing")) } == 0)
            #expect(try await store.read { try $0.find(FindQuery(className: "Nothing")) } == [])

            // Whole objects come back.
            let found = try await store.read {
                try $0.find(
                    FindQuery(className: "Game", condition: .field(path: "objectId", constraints: [.equalTo("g4")])))
            }
            #expect(found == [F.games[3]])
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func writeTransactionsQueryTheirOwnChanges(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            try await F.seedGames(store)
            let (found, count) = try await store.write(caller: nil) { transaction in
                try transaction.insert(F.object("Game", "g5", ["score": 50, "name": "epsilon"]))
                let query = FindQuery(
                    className: "Game", condition: .field(path: "score", constraints: [.greaterThan(25)]))
                return (try transaction.find(query).map(\.objectId), try transaction.count(query))
            }
            #expect(found == ["g3", "g5"])
            #expect(count == 2)
        }
    }

    /// `relationOwners` takes any number of targets (RoleService asks with a whole level of child roles): each
    /// owner comes back once, even when it holds targets of several chunks.
    @Test(arguments: StoreEngine.allCases)
    func relationOwnersTakeAnyNumberOfTargets(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let targets = (0..<1200).map { PointerValue(className: "_Role", objectId: "r\($0)") }
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "_Role", fields: ["roles": .init(type: .relation, targetClass: "_Role")])
                for owner in ["o1", "o2", "o3", "o4"] {
                    try transaction.insert(F.object("_Role", owner, [:]))
                }
                let add = { (owner: String, key: String, members: [PointerValue]) in
                    try transaction.addRelation(className: "_Role", objectId: owner, key: key, targets: members)
                }
                try add("o1", "roles", [targets[0], targets[1100]])
                try add("o2", "roles", [targets[700]])
                try add("o3", "roles", [PointerValue(className: "_Role", objectId: "x")])
                try add("o4", "users", [targets[5]])
            }
            let owners = try await store.read { transaction in
                try transaction.relationOwners(className: "_Role", key: "roles", holdingAnyOf: targets)
            }
            #expect(owners.map(\.objectId).sorted() == ["o1", "o2"])
            let none = try await store.read { transaction in
                try transaction.relationOwners(className: "_Role", key: "roles", holdingAnyOf: [])
            }
            #expect(none.isEmpty)
        }
    }
}
