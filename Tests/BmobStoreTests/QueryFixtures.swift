import BmobStore
import BmobWire

/// Objects with typed fields, stored the way the object service stores them, for the query tests.
enum QueryFixtures {
    /// 2024-01-01 00:00:00 UTC in milliseconds.
    static let newYear: Int64 = 1_704_067_200_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    static func date(_ iso: String) -> JSONValue {
        ["__type": "Date", "iso": .string(iso)]
    }

    static func pointer(_ className: String, _ objectId: String) -> JSONValue {
        PointerValue(className: className, objectId: objectId).json
    }

    static func point(_ latitude: Double, _ longitude: Double) -> JSONValue {
        GeoPointValue(latitude: latitude, longitude: longitude).json
    }

    static func object(
        _ className: String,
        _ objectId: String,
        at time: Int64 = newYear,
        _ fields: [String: JSONValue]
    ) -> StoredObject {
        StoredObject(className: className, objectId: objectId, createdAt: time, updatedAt: time, fields: fields)
    }

    /// `Game`: numbers, strings, arrays, booleans, dates, pointers, objects, geo points and a relation.
    ///
    /// | id | score | name  | tags    | done  | birthday   | owner | loc      | created                 |
    /// |----|-------|-------|---------|-------|------------|-------|----------|-------------------------|
    /// | g1 | 10    | Alpha | [a, b]  | true  | 2020-01-01 | u1    | (0, 0)   | 2024-01-01 10:00:00.000 |
    /// | g2 | 20    | beta  | [b, c]  | false | 2021-06-01 | u2    | (0, 0.5) | 2024-01-01 10:00:00.500 |
    /// | g3 | 30    | Gamma | [c]     | –     | –          | u1    | (0, 2)   | 2024-01-02 09:00        |
    /// | g4 | –     | delta | –       | –     | –          | –     | –        | 2024-01-02 12:00        |
    static let gameSchema: [String: FieldSchema] = [
        "score": .init(type: .number), "name": .init(type: .string), "tags": .init(type: .array),
        "done": .init(type: .boolean), "birthday": .init(type: .date),
        "owner": .init(type: .pointer, targetClass: "_User"), "meta": .init(type: .object),
        "loc": .init(type: .geoPoint), "likes": .init(type: .relation, targetClass: "_User"),
    ]

    static let games: [StoredObject] = [
        object(
            "Game", "g1", at: newYear + 10 * hour,
            [
                "score": 10, "name": "Alpha", "tags": ["a", "b"], "done": true,
                "birthday": date("2020-01-01 00:00:00"), "owner": pointer("_User", "u1"), "meta": ["k": 1],
                "loc": point(0, 0), "likes": ["__type": "Relation", "className": "_User"],
            ]),
        object(
            "Game", "g2", at: newYear + 10 * hour + 500,
            [
                "score": 20, "name": "beta", "tags": ["b", "c"], "done": false,
                "birthday": date("2021-06-01 00:00:00"), "owner": pointer("_User", "u2"), "meta": ["k": 2],
                "loc": point(0, 0.5), "likes": ["__type": "Relation", "className": "_User"],
            ]),
        object(
            "Game", "g3", at: newYear + day + 9 * hour,
            ["score": 30, "name": "Gamma", "tags": ["c"], "owner": pointer("_User", "u1"), "loc": point(0, 2)]),
        object("Game", "g4", at: newYear + day + 12 * hour, ["name": "delta"]),
    ]

    static let users: [StoredObject] = [
        object("_User", "u1", ["username": "ann", "city": "Paris"]),
        object("_User", "u2", ["username": "bob", "city": "Rome"]),
        object("_User", "u3", ["username": "cy", "city": "Oslo"]),
    ]

    static let teams: [StoredObject] = [
        object("Team", "t1", ["city": "Paris"]),
        object("Team", "t2", ["city": "Berlin"]),
    ]

    /// Stores games, users and teams, with `g1.likes = [u1, u2]` and `g2.likes = [u2]`.
    static func seedGames(_ store: any Store) async throws {
        try await store.write(caller: nil) { transaction in
            try transaction.recordFields(className: "Game", fields: gameSchema)
            try transaction.recordFields(
                className: "_User", fields: ["username": .init(type: .string), "city": .init(type: .string)])
            try transaction.recordFields(className: "Team", fields: ["city": .init(type: .string)])
            for object in games + users + teams {
                try transaction.insert(object)
            }
            try transaction.addRelation(
                className: "Game", objectId: "g1", key: "likes",
                targets: [
                    PointerValue(className: "_User", objectId: "u1"), PointerValue(className: "_User", objectId: "u2"),
                ])
            try transaction.addRelation(
                className: "Game", objectId: "g2", key: "likes",
                targets: [PointerValue(className: "_User", objectId: "u2")])
        }
    }

    /// The objectIds a query finds, in result order.
    static func ids(_ store: any Store, _ query: FindQuery) async throws -> [String] {
        try await store.read { try $0.find(query) }.map(\.objectId)
    }

    /// The objectIds of games matching one field constraint, sorted.
    static func games(_ store: any Store, _ path: String, _ constraints: FieldConstraint...) async throws
        -> [String]
    {
        try await ids(store, FindQuery(className: "Game", condition: .field(path: path, constraints: constraints)))
            .sorted()
    }
}
