import BmobWire
import Testing
import BmobServerCodecs

/// Every BQL form of bmob.md §12 and the DOC-BQL page, parsed by ``BQLParser``.
@Suite struct BQLParserTests {
    private func parse(
        _ bql: String, _ values: [JSONValue] = [], now: Int64? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> BQLStatement? {
        do {
            return try BQLParser.parse(bql, values: values, nowMilliseconds: now)
        } catch {
            Issue.record("unexpected error \(error) for \(bql)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func condition(
        _ whereClause: String, _ values: [JSONValue] = [], sourceLocation: SourceLocation = #_sourceLocation
    )
        -> QueryCondition?
    {
        parse("select * from GameScore where \(whereClause)", values, sourceLocation: sourceLocation)?.query.condition
    }

    // MARK: - Select list

    @Test func selectAll() {
        let statement = parse("select * from GameScore")
        #expect(
            statement
                == BQLStatement(
                    query: FindQuery(className: "GameScore"), countRequested: false, columns: [], selectsAll: true,
                    include: []))
    }

    @Test func keywordsInAnyCaseAndASemicolon() {
        #expect(parse("SELECT * FROM GameScore WHERE name = 'a' LIMIT 5;")?.query.limit == 5)
        #expect(parse("SeLeCt * fRoM GameScore  ;")?.query.className == "GameScore")
    }

    @Test func columns() {
        let statement = parse("select name,playScore from GameScore")
        #expect(statement?.columns == ["name", "playScore"])
        #expect(statement?.query.keys == ["name", "playScore"])
        #expect(statement?.selectsAll == false)
        #expect(parse("select name, * from GameScore")?.query.keys == nil)
        #expect(parse("select address.city from GameScore")?.columns == ["address.city"])
    }

    @Test func countOnly() {
        let statement = parse("select count(*) from GameScore")
        #expect(statement?.countRequested == true)
        #expect(statement?.query.count == true)
        #expect(statement?.query.limit == 0)
        #expect(parse("select COUNT(objectId) from GameScore")?.countRequested == true)
    }

    @Test func countWithObjects() {
        let all = parse("select count(*),* from GameScore")
        #expect(all?.countRequested == true)
        #expect(all?.query.limit == 100)
        #expect(all?.selectsAll == true)
        let game = parse("select count(*),game from GameScore")
        #expect(game?.query.keys == ["game"])
        #expect(game?.query.count == true)
        #expect(game?.query.limit == 100)
        #expect(parse("select count(*) from GameScore limit 5")?.query.limit == 5)
    }

    @Test func include() {
        let statement = parse("select include author, * from Comment")
        #expect(statement?.include == ["author"])
        #expect(statement?.query.include == ["author"])
        #expect(statement?.selectsAll == true)
        #expect(parse("select include weibo,include author from Comment")?.include == ["weibo", "author"])
        #expect(parse("select include weibo.author,* from Comment")?.query.include == ["weibo.author"])
        // A column called include.
        #expect(parse("select include from Comment")?.columns == ["include"])
    }

    @Test func systemClassesAndBackticks() {
        #expect(parse("select * from _User where username = 'smile'")?.query.className == "_User")
        #expect(parse("select `order` from `GameScore` where `limit` = 1")?.query.keys == ["order"])
        #expect(condition("`limit` = 1") == field("limit", .equalTo(1)))
    }

    // MARK: - Comparisons and values

    @Test(arguments: [
        ("name='smile'", field("name", .equalTo("smile"))),
        ("name = \"smile\"", field("name", .equalTo("smile"))),
        ("name != 'smile'", field("name", .notEqualTo("smile"))),
        ("name <> 'smile'", field("name", .notEqualTo("smile"))),
        ("score < 10", field("score", .lessThan(10))),
        ("score <= -2.5", field("score", .lessThanOrEqualTo(-2.5))),
        ("score > +3", field("score", .greaterThan(3))),
        ("score >= 1e3", field("score", .greaterThanOrEqualTo(1000.0))),
        ("flag = true", field("flag", .equalTo(true))),
        ("flag = FALSE", field("flag", .equalTo(false))),
        ("flag = null", field("flag", .equalTo(nil))),
        ("hobby = '游泳'", field("hobby", .equalTo("游泳"))),
        ("list = [1, 'a', [true]]", field("list", .equalTo([1, "a", [true]]))),
        ("big = 9223372036854775808", field("big", .equalTo(9_223_372_036_854_775_808.0))),
        ("list.0.name = 'x'", field("list.0.name", .equalTo("x"))),
    ])
    func comparisons(whereClause: String, expected: QueryCondition) {
        #expect(condition(whereClause) == expected)
    }

    @Test func bareWordIsAStringAsInTheDocs() {
        #expect(
            parse("select * from _User where username= smile")?.query.condition == field("username", .equalTo("smile")))
    }

    @Test func stringEscapes() {
        #expect(condition(#"a = 'it\'s'"#) == field("a", .equalTo("it's")))
        #expect(condition("a = 'it''s'") == field("a", .equalTo("it's")))
        #expect(condition(#"a = "say \"hi\"\n\t\\""#) == field("a", .equalTo("say \"hi\"\n\t\\")))
        #expect(condition(#"a = '\d+'"#) == field("a", .equalTo(#"\d+"#)))
    }

    @Test func objectLiterals() {
        let date: JSONValue = ["__type": "Date", "iso": "2015-05-12 00:00:00"]
        #expect(
            condition("createdAt < {'__type': 'Date','iso': '2015-05-12 00:00:00'}")
                == field("createdAt", .lessThan(date)))
        #expect(condition("o = {}") == field("o", .equalTo([:])))
    }

    @Test func functions() {
        let date: JSONValue = ["__type": "Date", "iso": "2015-05-20 00:00:00"]
        #expect(condition("createdAt < date('2015-05-20 00:00:00')") == field("createdAt", .lessThan(date)))
        #expect(
            condition("player = pointer('_User', '6720c14c28')")
                == field("player", .equalTo(pointer("_User", "6720c14c28").json)))
        #expect(
            condition("gps = geopoint(112.934755,24.52065)")
                == field("gps", .equalTo(geo(24.52065, 112.934755).json)))
        #expect(
            condition("f = file('a.jpg', 'http://x/a.jpg')")
                == field("f", .equalTo(["__type": "File", "filename": "a.jpg", "url": "http://x/a.jpg"])))
        let now = parse("select * from A where createdAt < current_timestamp()", now: 1_437_531_770_000)
        #expect(
            now?.query.condition
                == field("createdAt", .lessThan(["__type": "Date", "iso": "2015-07-22 02:22:50"])))
        #expect(condition("createdAt < DATE('2015-05-20 00:00:00')") == field("createdAt", .lessThan(date)))
    }

    // MARK: - Other operators

    @Test func like() {
        #expect(condition("name like 'smile%'") == field("name", .matchesRegex(pattern: "^smile", options: "")))
        #expect(condition("name LIKE '%s.m_le'") == field("name", .matchesRegex(pattern: #"s\.m.le$"#, options: "s")))
        let notLike = condition("name not like 'smile%'")
        let matching = SubQuery(
            className: "GameScore", condition: field("name", .matchesRegex(pattern: "^smile", options: "")))
        #expect(notLike == field("name", .doesNotMatchKeyInQuery(key: "name", query: matching)))
    }

    @Test func regexp() {
        #expect(condition("name regexp 'smile.*'") == field("name", .matchesRegex(pattern: "smile.*", options: "")))
        let matching = SubQuery(
            className: "GameScore", condition: field("name", .matchesRegex(pattern: "s", options: "")))
        #expect(
            condition("name not regexp 's'") == field("name", .doesNotMatchKeyInQuery(key: "name", query: matching)))
    }

    @Test func inLists() {
        #expect(condition("score in (1, 3, 5)") == field("score", .containedIn([1, 3, 5])))
        #expect(condition("score in [1, 3]") == field("score", .containedIn([1, 3])))
        #expect(condition("score not in ('a')") == field("score", .notContainedIn(["a"])))
        #expect(condition("score in ()") == field("score", .containedIn([])))
        #expect(condition("score in ?", [[1, 2]]) == field("score", .containedIn([1, 2])))
    }

    @Test func inSubQueries() {
        let weibo = SubQuery(className: "Weibo", condition: field("image", .exists(true)))
        #expect(
            condition("weibo in (select * from Weibo where image is exists)") == field("weibo", .matchesQuery(weibo)))
        #expect(
            condition("weibo not in (select * from Weibo where image is exists)")
                == field("weibo", .doesNotMatchQuery(weibo)))
        let teams = SubQuery(className: "Team", condition: field("winPct", .greaterThan(0.5)))
        #expect(
            condition("hometown in (select city from Team where winPct > 0.5)")
                == field("hometown", .matchesKeyInQuery(key: "city", query: teams)))
        #expect(
            condition("hometown not in (select city from Team where winPct > 0.5)")
                == field("hometown", .doesNotMatchKeyInQuery(key: "city", query: teams)))
        #expect(
            condition("author in (select * from _User)")
                == field("author", .matchesQuery(SubQuery(className: "_User", condition: nil))))
    }

    @Test func existsAndAll() {
        #expect(condition("name is exists") == field("name", .exists(true)))
        #expect(condition("name IS NOT EXISTS") == field("name", .exists(false)))
        #expect(condition("hobby all ('游泳','看书')") == field("hobby", .containsAll(["游泳", "看书"])))
        #expect(condition("hobby all ['a']") == field("hobby", .containsAll(["a"])))
    }

    @Test func near() throws {
        let point = geo(24.52065, 112.934755)
        #expect(
            condition("gps near [112.934755,24.52065]") == field("gps", .nearSphere(point, maxDistanceRadians: nil)))
        #expect(
            condition("gps near geopoint(112.934755,24.52065)")
                == field("gps", .nearSphere(point, maxDistanceRadians: nil)))
        #expect(
            condition("gps near [112.934755,24.52065] max 6371 km")
                == field("gps", .nearSphere(point, maxDistanceRadians: 1)))
        #expect(
            condition("gps near [112.934755,24.52065] max 0.5")
                == field("gps", .nearSphere(point, maxDistanceRadians: 0.5)))
        #expect(
            condition("gps near [112.934755,24.52065] max 0.5 radians")
                == field("gps", .nearSphere(point, maxDistanceRadians: 0.5)))
        let miles = try #require(condition("gps near [112.934755,24.52065] max 3958.8 miles"))
        #expect(miles == field("gps", .nearSphere(point, maxDistanceRadians: 1)))
        #expect(
            condition("gps near ? max ? km", [[112.934755, 24.52065], 6371])
                == field("gps", .nearSphere(point, maxDistanceRadians: 1)))
        #expect(
            condition("gps near ?", [point.json]) == field("gps", .nearSphere(point, maxDistanceRadians: nil)))
    }

    @Test func within() {
        #expect(
            condition("gps within [102.934755,24.52065] and [112.934755,24.52065]")
                == field(
                    "gps", .withinBox(southwest: geo(24.52065, 102.934755), northeast: geo(24.52065, 112.934755))))
        #expect(
            condition("gps within [1,2] and [3,4] and name = 'x'")
                == .and([
                    field("gps", .withinBox(southwest: geo(2, 1), northeast: geo(4, 3))), field("name", .equalTo("x")),
                ]))
    }

    @Test func related() {
        #expect(
            condition("related comment to pointer('Weibo', '262f6ace1a')")
                == .relatedTo(object: pointer("Weibo", "262f6ace1a"), key: "comment"))
        #expect(
            condition("related comment to pointer(?, ?) and a = 1", ["Weibo", "262f6ace1a"])
                == .and([.relatedTo(object: pointer("Weibo", "262f6ace1a"), key: "comment"), field("a", .equalTo(1))]))
        // A field called related.
        #expect(condition("related = 1") == field("related", .equalTo(1)))
    }

    // MARK: - Combining

    @Test func andBindsTighterThanOr() {
        let expected = QueryCondition.or([
            .field(path: "playScore", constraints: [.greaterThan(10), .lessThanOrEqualTo(15)]),
            field("playScore", .equalTo(5)),
        ])
        #expect(condition("playScore>10 and playScore<=15 or playScore=5") == expected)
        #expect(condition("(playScore>10 and playScore<=15) or playScore=5") == expected)
        #expect(
            condition("a = 1 and (b = 2 or c = 3)")
                == .and([field("a", .equalTo(1)), .or([field("b", .equalTo(2)), field("c", .equalTo(3))])]))
        #expect(
            condition("a = 1 or b = 2 or (c = 3 or d = 4)")
                == .or([
                    field("a", .equalTo(1)), field("b", .equalTo(2)), field("c", .equalTo(3)), field("d", .equalTo(4)),
                ]))
        #expect(condition("((a = 1))") == field("a", .equalTo(1)))
    }

    @Test func andWhereAsInTheDocs() {
        #expect(
            parse("select count(*) from GameScore where playScore>10 and where playScore<20")?.query.condition
                == .field(path: "playScore", constraints: [.greaterThan(10), .lessThan(20)]))
    }

    @Test func sameFieldIsMergedAcrossParentheses() {
        #expect(
            condition("name is exists and (playScore > 80 and playScore <= 100)")
                == .and([
                    field("name", .exists(true)),
                    .field(path: "playScore", constraints: [.greaterThan(80), .lessThanOrEqualTo(100)]),
                ]))
    }

    // MARK: - Placeholders

    @Test func placeholders() {
        let statement = parse(
            "select * from GameScore where name=? and playScore>? limit ?,?", ["smile", 80, 10, 20])
        #expect(
            statement?.query.condition
                == .and([field("name", .equalTo("smile")), field("playScore", .greaterThan(80))]))
        #expect(statement?.query.skip == 10)
        #expect(statement?.query.limit == 20)
    }

    @Test func placeholdersInFunctions() {
        let statement = parse(
            "select * from GameScore where createdAt > date(?) and player = pointer(?,?) and gps near geopoint(?,?)",
            ["2015-05-12 00:00:00", "_User", "abc", 112.5, 24.5])
        #expect(
            statement?.query.condition
                == .and([
                    field("createdAt", .greaterThan(["__type": "Date", "iso": "2015-05-12 00:00:00"])),
                    field("player", .equalTo(pointer("_User", "abc").json)),
                    field("gps", .nearSphere(geo(24.5, 112.5), maxDistanceRadians: nil)),
                ]))
        #expect(condition("name like ?", ["a%"]) == field("name", .matchesRegex(pattern: "^a", options: "")))
        #expect(condition("o = ?", [["nested": [1]]]) == field("o", .equalTo(["nested": [1]])))
    }

    // MARK: - Limit and order

    @Test func limitAndSkip() {
        #expect(parse("select * from GameScore limit 10")?.query.limit == 10)
        let page = parse("select * from GameScore limit 10,10")
        #expect(page?.query.skip == 10)
        #expect(page?.query.limit == 10)
        #expect(parse("select * from GameScore limit 5000")?.query.limit == 1000)
        #expect(parse("select * from GameScore limit 0")?.query.limit == 0)
        #expect(parse("select * from GameScore")?.query.limit == 100)
    }

    @Test func orderBy() {
        #expect(
            parse("select * from GameScore order by -playScore,+name")?.query.order == [
                OrderKey(path: "playScore", descending: true), OrderKey(path: "name"),
            ])
        #expect(
            parse("select * from GameScore order by playScore desc")?.query.order == [
                OrderKey(path: "playScore", descending: true)
            ])
        // Keys without a sign follow the final asc or desc.
        #expect(
            parse("select * from GameScore order by playScore,+name desc")?.query.order == [
                OrderKey(path: "playScore", descending: true), OrderKey(path: "name"),
            ])
        #expect(
            parse("select * from GameScore order by -playScore,name asc")?.query.order == [
                OrderKey(path: "playScore", descending: true), OrderKey(path: "name"),
            ])
        #expect(
            parse("select * from GameScore order by a desc, b")?.query.order == [
                OrderKey(path: "a", descending: true), OrderKey(path: "b"),
            ])
    }

    @Test func clausesTogether() {
        let statement = parse(
            "select name from GameScore where score > 1 limit 2, 3 order by -score")
        #expect(statement?.query.skip == 2)
        #expect(statement?.query.limit == 3)
        #expect(statement?.query.order == [OrderKey(path: "score", descending: true)])
        #expect(statement?.query.keys == ["name"])
    }

    // MARK: - Statistics

    @Test func sumAndGroupBy() {
        #expect(parse("select sum(playScore) from GameScore")?.query.aggregation == Aggregation(sum: ["playScore"]))
        #expect(
            parse("select sum(playScore) from GameScore group by name")?.query.aggregation
                == Aggregation(groupBy: ["name"], sum: ["playScore"]))
    }

    @Test func havingAndGroupCount() {
        let statement = parse(
            "select sum(playScore),count(*) from GameScore group by name having _sumPlayScore > 200")
        #expect(
            statement?.query.aggregation
                == Aggregation(
                    groupBy: ["name"], groupCount: true, sum: ["playScore"],
                    having: field("_sumPlayScore", .greaterThan(200))))
        #expect(statement?.countRequested == false)
        #expect(statement?.query.count == false)
        #expect(Aggregation.resultName("sum", "playScore") == "_sumPlayScore")
    }

    @Test func allFunctions() {
        let statement = parse(
            "select average(a), AVG(b), max(c), min(d), sum(e) from T where x = 1 group by g, h "
                + "having _avgA > 1 and _maxC < 5 order by -_sumE limit 5")
        #expect(
            statement?.query.aggregation
                == Aggregation(
                    groupBy: ["g", "h"], sum: ["e"], average: ["a", "b"], max: ["c"], min: ["d"],
                    having: .and([field("_avgA", .greaterThan(1)), field("_maxC", .lessThan(5))])))
        #expect(statement?.query.order == [OrderKey(path: "_sumE", descending: true)])
        #expect(statement?.query.condition == field("x", .equalTo(1)))
    }

    @Test func theWhereOfAStatementRoundTripsThroughJSON() throws {
        let statement = try #require(
            parse(
                "select * from A where (a > 1 and a < 5 or b in (select k from B where c = 'x')) and related r to "
                    + "pointer('P', 'id') and g within [1,2] and [3,4] and n not like 'x_y%'"))
        let condition = try #require(statement.query.condition)
        let reparsed = try WhereParser.parse(WhereEncoder.encode(condition))
        #expect(normalized(reparsed) == normalized(condition))
    }
}
