import BmobStore
import BmobTesting
import BmobWire
import Testing

/// The compiler alone, in the SQLite dialect: SQL text and bindings, no database. The text is exactly what the
/// declared indexes hold (``SQLiteStoreIndexTests`` proves SQLite uses them).
@Suite("SQLQueryCompiler", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLQueryCompilerTests {
    let compiler = SQLQueryCompiler(dialect: SQLiteDialect(), classes: [
        "Game": QueryFixtures.gameSchema,
        "_User": ["username": .init(type: .string), "city": .init(type: .string)],
        "Team": ["city": .init(type: .string)],
    ])

    private func whereSQL(_ condition: QueryCondition, className: String = "Game") throws -> SQLFragment {
        try compiler.whereClause(condition, className: className)
    }

    @Test func findUsesTheCanonicalExpressionInWhereAndOrder() throws {
        let query = FindQuery(
            className: "Game", condition: .field(path: "score", constraints: [.greaterThan(5)]),
            order: [OrderKey(path: "score")], limit: 20, skip: 40)
        let statement = try #require(try compiler.find(query))
        #expect(
            statement.sql
                == "SELECT objectId, createdAt, updatedAt, acl, data FROM \"Game\" WHERE json_extract(data, '$.score') > ? "
                + "ORDER BY json_extract(data, '$.score') LIMIT 20 OFFSET ?")
        #expect(statement.arguments == [.integer(5), .integer(40)])
        // Without a skip there is no OFFSET: PostgreSQL keeps a generic plan only when the paging is constant.
        let first = try #require(try compiler.find(FindQuery(className: "Game", order: [OrderKey(path: "score")], limit: 20)))
        #expect(first.sql.hasSuffix("ORDER BY json_extract(data, '$.score') LIMIT 20"))
        #expect(first.arguments.isEmpty)
        // Index creation spells the field the same way.
        let path = try SQLFieldPath("score")
        #expect(SQLiteDialect().comparable(path, schema: .init(type: .number)) == "json_extract(data, '$.score')")
    }

    @Test func countIgnoresOrderAndPaging() throws {
        let query = FindQuery(
            className: "Game", condition: .field(path: "name", constraints: [.equalTo("x")]),
            order: [OrderKey(path: "score", descending: true)], limit: 1, skip: 3)
        let statement = try #require(try compiler.count(query))
        #expect(statement.sql == "SELECT count(*) FROM \"Game\" WHERE json_extract(data, '$.name') = ?")
        #expect(statement.arguments == [.text("x")])
    }

    @Test func valuesAreBoundNeverInterpolated() throws {
        let hostile = "x'); DROP TABLE \"Game\"; --"
        let statement = try whereSQL(
            .or([
                .field(
                    path: "name",
                    constraints: [.equalTo(.string(hostile)), .matchesRegex(pattern: "x' OR DROP", options: "")]),
                .field(path: "tags", constraints: [.containedIn([.string(hostile)])]),
            ]))
        #expect(!statement.sql.contains("DROP"))
        #expect(statement.arguments.filter { $0 == .text(hostile) }.count == 2)
        #expect(statement.arguments.contains(.text("x' OR DROP")))
    }

    @Test func namesAreValidatedBeforeSQL() throws {
        #expect(throws: StoreError.self) { try compiler.find(FindQuery(className: "Game\"; --")) }
        let badField = #expect(throws: StoreError.self) {
            try whereSQL(.field(path: "a') OR 1=1 --", constraints: [.equalTo(1)]))
        }
        #expect(badField?.code == .invalidFieldName)
        let badKey = #expect(throws: StoreError.self) {
            try whereSQL(
                .field(
                    path: "name",
                    constraints: [.matchesKeyInQuery(key: "x'y", query: SubQuery(className: "Team", condition: nil))]))
        }
        #expect(badKey?.code == .invalidFieldName)
        // Array indexes after the first component are allowed and become JSON path indexes.
        let nested = try whereSQL(.field(path: "meta.list.0.name", constraints: [.equalTo("n")]))
        #expect(nested.sql == "json_extract(data, '$.meta.list[0].name') = ?")
    }

    @Test func missingClassCompilesToNothing() throws {
        #expect(try compiler.find(FindQuery(className: "Nothing")) == nil)
        #expect(try compiler.count(FindQuery(className: "Nothing")) == nil)
    }

    @Test func datesCompareNormalisedISOText() throws {
        let statement = try whereSQL(
            .field(
                path: "birthday", constraints: [.greaterThanOrEqualTo(QueryFixtures.date("2020-01-01T08:00:00+08:00"))])
        )
        #expect(statement.sql == "json_extract(data, '$.birthday.iso') >= ?")
        #expect(statement.arguments == [.text("2020-01-01 00:00:00")])
        // A plain string on a field recorded as a Date is a date too.
        let plain = try whereSQL(.field(path: "birthday", constraints: [.lessThan("2021-01-01")]))
        #expect(plain.sql == "json_extract(data, '$.birthday.iso') < ?")
        #expect(plain.arguments == [.text("2021-01-01 00:00:00")])
        let invalid = #expect(throws: StoreError.self) {
            try whereSQL(.field(path: "birthday", constraints: [.equalTo(QueryFixtures.date("yesterday"))]))
        }
        #expect(invalid?.bmobCode == .invalidQuery)
    }

    @Test func systemDatesAreMillisecondRangesToTheSecond() throws {
        let statement = try whereSQL(
            .and([
                .field(path: "createdAt", constraints: [.equalTo(QueryFixtures.date("2024-01-01 10:00:00"))]),
                .field(path: "updatedAt", constraints: [.greaterThan("2024-01-01 10:00:00")]),
            ]))
        let second = QueryFixtures.newYear + 10 * QueryFixtures.hour
        #expect(statement.sql == "((createdAt >= ? AND createdAt < ?) AND updatedAt >= ?)")
        #expect(statement.arguments == [.integer(second), .integer(second + 1000), .integer(second + 1000)])
    }

    @Test func pointersCompareObjectIdAndClassName() throws {
        let statement = try whereSQL(
            .field(path: "owner", constraints: [.equalTo(QueryFixtures.pointer("_User", "u1"))]))
        #expect(
            statement.sql
                == "(json_extract(data, '$.owner.objectId') = ? AND json_extract(data, '$.owner.className') = ?)")
        #expect(statement.arguments == [.text("u1"), .text("_User")])
        let notEqual = try whereSQL(
            .field(path: "owner", constraints: [.notEqualTo(QueryFixtures.pointer("_User", "u1"))]))
        #expect(notEqual.sql.hasSuffix(") IS NOT TRUE"))
    }

    @Test func objectsCompareCanonicalJSON() throws {
        let statement = try whereSQL(.field(path: "meta", constraints: [.equalTo(["z": 1, "a": "b"])]))
        #expect(statement.sql == "json_extract(data, '$.meta') = ?")
        #expect(statement.arguments == [.text(#"{"a":"b","z":1}"#)])
    }

    @Test func arraysTestElementsThroughJSONEach() throws {
        let statement = try whereSQL(.field(path: "tags", constraints: [.equalTo("a")]))
        #expect(statement.sql == "EXISTS (SELECT 1 FROM json_each(data, '$.tags') WHERE value = ?)")
        let notIn = try whereSQL(.field(path: "tags", constraints: [.notContainedIn(["a", "b"])]))
        #expect(notIn.sql == "NOT (EXISTS (SELECT 1 FROM json_each(data, '$.tags') WHERE value IN (?, ?)))")
        // A field the schema does not call an Array compares the value itself (indexable).
        let plain = try whereSQL(.field(path: "name", constraints: [.containedIn(["a", "b"])]))
        #expect(plain.sql == "json_extract(data, '$.name') IN (?, ?)")
    }

    @Test func notEqualAndNotInAlsoMatchMissingFields() throws {
        #expect(
            try whereSQL(.field(path: "score", constraints: [.notEqualTo(3)])).sql
                == "json_extract(data, '$.score') IS NOT ?")
        #expect(
            try whereSQL(.field(path: "score", constraints: [.notContainedIn([1, 2])])).sql
                == "(json_extract(data, '$.score') IN (?, ?)) IS NOT TRUE")
        #expect(
            try whereSQL(.field(path: "score", constraints: [.exists(true)])).sql
                == "json_type(data, '$.score') IS NOT NULL")
        #expect(try whereSQL(.field(path: "objectId", constraints: [.exists(true)])) == SQLFragment("TRUE"))
    }

    @Test func relationsUseTheRelationTable() throws {
        let contains = try whereSQL(
            .field(path: "likes", constraints: [.equalTo(QueryFixtures.pointer("_User", "u1"))]))
        #expect(
            contains.sql
                == "objectId IN (SELECT objectId FROM \"__relation\" WHERE className = ? AND key = ? AND "
                + "(targetObjectId = ? AND targetClassName = ?))")
        #expect(contains.arguments == [.text("Game"), .text("likes"), .text("u1"), .text("_User")])
        let related = try whereSQL(
            .relatedTo(object: PointerValue(className: "Game", objectId: "g1"), key: "likes"), className: "_User")
        #expect(
            related.sql
                == "objectId IN (SELECT targetObjectId FROM \"__relation\" WHERE className = ? AND objectId = ? "
                + "AND key = ? AND targetClassName = ?)")
        #expect(related.arguments == [.text("Game"), .text("g1"), .text("likes"), .text("_User")])
    }

    @Test func subQueriesSelectFromTheOtherTable() throws {
        let inQuery = try whereSQL(
            .field(
                path: "owner",
                constraints: [
                    .matchesQuery(
                        SubQuery(className: "_User", condition: .field(path: "city", constraints: [.equalTo("Paris")])))
                ]))
        #expect(
            inQuery.sql
                == "(json_extract(data, '$.owner.objectId') IN (SELECT objectId FROM \"_User\" WHERE "
                + "json_extract(data, '$.city') = ?) AND json_extract(data, '$.owner.className') = ?)")
        #expect(inQuery.arguments == [.text("Paris"), .text("_User")])
        let select = try whereSQL(
            .field(
                path: "city",
                constraints: [.matchesKeyInQuery(key: "city", query: SubQuery(className: "Team", condition: nil))]),
            className: "_User")
        #expect(select.sql == "json_extract(data, '$.city') IN (SELECT json_extract(data, '$.city') FROM \"Team\")")
        // A class that does not exist: nothing matches, or everything for the negations.
        let missing = SubQuery(className: "Nothing", condition: nil)
        #expect(try whereSQL(.field(path: "owner", constraints: [.matchesQuery(missing)])) == SQLFragment("FALSE"))
        #expect(try whereSQL(.field(path: "owner", constraints: [.doesNotMatchQuery(missing)])) == SQLFragment("TRUE"))
        #expect(
            try whereSQL(.field(path: "name", constraints: [.matchesKeyInQuery(key: "city", query: missing)]))
                == SQLFragment("FALSE"))
        #expect(
            try whereSQL(.field(path: "name", constraints: [.doesNotMatchKeyInQuery(key: "city", query: missing)]))
                == SQLFragment("TRUE"))
    }

    @Test func nearSphereFiltersByDistanceAndOrdersWithoutAnExplicitOrder() throws {
        let near = QueryCondition.field(
            path: "loc", constraints: [.nearSphere(GeoPointValue(latitude: 1, longitude: 2), maxDistanceRadians: nil)])
        let statement = try #require(try compiler.find(FindQuery(className: "Game", condition: near)))
        let distance =
            "bmob_distance(?, ?, json_extract(data, '$.loc.latitude'), json_extract(data, '$.loc.longitude'))"
        #expect(
            statement.sql.contains("WHERE (json_extract(data, '$.loc.latitude') BETWEEN ? AND ? AND \(distance) <= ?)"))
        #expect(statement.sql.hasSuffix("ORDER BY \(distance) LIMIT 100"))
        #expect(statement.arguments.contains(.real(100.0 / 6371.0)))
        let ordered = try #require(
            try compiler.find(FindQuery(className: "Game", condition: near, order: [OrderKey(path: "name")])))
        #expect(ordered.sql.hasSuffix("ORDER BY json_extract(data, '$.name') LIMIT 100"))
    }

    @Test func boxCrossingTheAntimeridian() throws {
        let statement = try whereSQL(
            .field(
                path: "loc",
                constraints: [
                    .withinBox(
                        southwest: GeoPointValue(latitude: -10, longitude: 170),
                        northeast: GeoPointValue(latitude: 10, longitude: -170))
                ]))
        #expect(
            statement.sql
                == "(json_extract(data, '$.loc.latitude') BETWEEN ? AND ? AND (json_extract(data, '$.loc.longitude') >= ? "
                + "OR json_extract(data, '$.loc.longitude') <= ?))")
        #expect(statement.arguments == [.real(-10), .real(10), .real(170), .real(-170)])
    }

    @Test func invalidRegexIsAnInvalidQuery() throws {
        let error = #expect(throws: StoreError.self) {
            try whereSQL(.field(path: "name", constraints: [.matchesRegex(pattern: "(", options: "")]))
        }
        #expect(error?.code == .invalidQuery)
        #expect(error?.bmobCode == .invalidQuery)
        #expect(error?.message.hasPrefix("invalid $regex") == true)
        let statement = try whereSQL(.field(path: "name", constraints: [.matchesRegex(pattern: "^a", options: "i")]))
        #expect(statement == SQLFragment("bmob_regexp(?, ?, json_extract(data, '$.name'))", [.text("^a"), .text("i")]))
    }

    @Test func aggregateNamesAreNotFindOrders() throws {
        let error = #expect(throws: StoreError.self) {
            try compiler.find(FindQuery(className: "Game", order: [OrderKey(path: "_sumScore", descending: true)]))
        }
        #expect(error?.code == .invalidQuery)
    }

    @Test func aggregateStatement() throws {
        let query = FindQuery(
            className: "Game", condition: .field(path: "score", constraints: [.greaterThan(0)]),
            order: [OrderKey(path: "_SUMSCORE", descending: true)], limit: 10,
            aggregation: Aggregation(
                groupBy: ["createdAt", "name"], groupCount: true, sum: ["score"],
                having: .field(path: "_count", constraints: [.greaterThan(1)])))
        let compiled = try #require(try compiler.aggregate(query))
        #expect(
            compiled.statement.sql
                == "SELECT date(createdAt / 1000, 'unixepoch'), json_extract(data, '$.name'), json_type(data, '$.name'), "
                + "count(*), COALESCE(sum(json_extract(data, '$.score')), 0) FROM \"Game\" "
                + "WHERE json_extract(data, '$.score') > ? "
                + "GROUP BY date(createdAt / 1000, 'unixepoch'), json_extract(data, '$.name') HAVING count(*) > ? "
                + "ORDER BY COALESCE(sum(json_extract(data, '$.score')), 0) DESC LIMIT 10")
        #expect(compiled.statement.arguments == [.integer(0), .integer(1)])
        #expect(compiled.columns.map(\.name) == ["createdAt", "name", "_count", "_sumScore"])
        #expect(compiled.columns.map(\.kind) == [.value, .json, .value, .value])

        let unknown = #expect(throws: StoreError.self) {
            try compiler.aggregate(
                FindQuery(
                    className: "Game", order: [OrderKey(path: "_sumOther")], aggregation: Aggregation(sum: ["score"])))
        }
        #expect(unknown?.code == .invalidQuery)
        let empty = #expect(throws: StoreError.self) {
            try compiler.aggregate(FindQuery(className: "Game", aggregation: Aggregation()))
        }
        #expect(empty?.code == .invalidQuery)
    }
}
