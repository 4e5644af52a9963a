import BmobWire

/// Pseudo-random, valid ``QueryCondition`` trees for property tests, reproducible from a seed.
struct QueryConditionGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    private static let paths = [
        "score", "name", "address.city", "tags", "createdAt", "objectId", "list.0.name", "player", "a_b9",
    ]
    private static let classes = ["GameScore", "_User", "Team", "Post"]

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    private mutating func pick<T>(_ options: [T]) -> T {
        options[int(0...(options.count - 1))]
    }

    /// A condition nested at most `depth` levels of `and`, `or` and sub-queries.
    mutating func condition(depth: Int = 3) -> QueryCondition {
        switch depth > 0 ? int(0...9) : int(0...7) {
        case 0...5:
            let count = int(1...3)
            return .field(path: pick(Self.paths), constraints: (0..<count).map { _ in constraint(depth: depth) })
        case 6, 7:
            return .relatedTo(
                object: PointerValue(className: pick(Self.classes), objectId: "id\(int(0...99))"), key: "likes")
        case 8:
            return .and((0..<int(2...3)).map { _ in condition(depth: depth - 1) })
        default:
            return .or((0..<int(1...3)).map { _ in condition(depth: depth - 1) })
        }
    }

    private mutating func subQuery(depth: Int) -> SubQuery {
        SubQuery(
            className: pick(Self.classes), condition: depth > 0 && int(0...2) > 0 ? condition(depth: depth - 1) : nil)
    }

    mutating func constraint(depth: Int) -> FieldConstraint {
        switch int(0...18) {
        case 0: .equalTo(value(depth: 2))
        case 1: .notEqualTo(value(depth: 2))
        case 2: .lessThan(comparable())
        case 3: .lessThanOrEqualTo(comparable())
        case 4: .greaterThan(comparable())
        case 5: .greaterThanOrEqualTo(comparable())
        case 6: .containedIn((0..<int(0...3)).map { _ in value(depth: 1) })
        case 7: .notContainedIn((0..<int(0...3)).map { _ in value(depth: 1) })
        case 8: .containsAll((0..<int(0...3)).map { _ in value(depth: 1) })
        case 9: .exists(int(0...1) == 1)
        case 10: .matchesRegex(pattern: pick(["^a", "b.c", "x+$", "中文"]), options: pick(["", "i", "ms"]))
        case 11: .matchesKeyInQuery(key: pick(Self.paths), query: subQuery(depth: depth))
        case 12: .doesNotMatchKeyInQuery(key: pick(Self.paths), query: subQuery(depth: depth))
        case 13: .matchesQuery(subQuery(depth: depth))
        case 14: .doesNotMatchQuery(subQuery(depth: depth))
        case 15: .nearSphere(geoPoint(), maxDistanceRadians: int(0...1) == 0 ? nil : Double(int(1...1000)) / 997)
        case 16:
            .withinBox(
                southwest: GeoPointValue(latitude: -10.5, longitude: Double(int(-180...0))),
                northeast: GeoPointValue(latitude: Double(int(-10...90)), longitude: 179.25))
        case 17: .equalTo(["$weird": 1, "plain": "x"])
        default: .equalTo(geoPoint().json)
        }
    }

    private mutating func geoPoint() -> GeoPointValue {
        GeoPointValue(latitude: Double(int(-900...900)) / 10, longitude: Double(int(-1800...1800)) / 10)
    }

    private mutating func comparable() -> JSONValue {
        switch int(0...4) {
        case 0: .int(Int64(int(-1000...1000)))
        case 1: .double(Double(int(-1000...1000)) / 8)
        case 2: .string(pick(["a", "smile", "你好", "with \"quotes\""]))
        case 3: .bool(int(0...1) == 1)
        default: ["__type": "Date", "iso": "2015-05-20 00:00:00"]
        }
    }

    private mutating func value(depth: Int) -> JSONValue {
        switch int(0...(depth > 0 ? 9 : 6)) {
        case 0: .null
        case 1: .bool(int(0...1) == 1)
        case 2: .int(Int64(int(-5...5)) * 1_000_000_007)
        case 3: .double(Double(int(-1000...1000)) / 3)
        case 4: .string(pick(["", "smile", "a+b", "\u{1F600}", "line\nbreak"]))
        case 5: PointerValue(className: pick(Self.classes), objectId: "p\(int(0...9))").json
        case 6: ["__type": "Date", "iso": "2024-01-01T10:00:00+08:00"]
        case 7: .array((0..<int(0...3)).map { _ in value(depth: depth - 1) })
        case 8: .object(["k\(int(0...3))": value(depth: depth - 1)])
        default: ["$x": value(depth: depth - 1)]
        }
    }
}
