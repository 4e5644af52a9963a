import BmobWire
import Testing
import BmobServerCodecs

/// What ``BQLParser`` rejects: always code 601, with what was expected and the byte offset.
@Suite struct BQLParserErrorTests {
    private func error(_ bql: String, _ values: [JSONValue] = [], sourceLocation: SourceLocation = #_sourceLocation)
        -> QueryParseError?
    {
        let error = queryError(sourceLocation: sourceLocation) { try BQLParser.parse(bql, values: values) }
        #expect(error?.code == .invalidBQL, sourceLocation: sourceLocation)
        return error
    }

    @Test(arguments: [
        ("", 0, "expected 'select' but found the end of the statement"),
        ("selec * from A", 0, "expected 'select' but found 'selec'"),
        ("select * form A", 9, "expected 'from' or ',' after the select list but found 'form'"),
        ("select * from", 13, "expected a class name but found the end of the statement"),
        ("select * from _Secret", 14, "invalid class name '_Secret' (system classes are _User, _Role, _Installation)"),
        (
            "select * from A wher a = 1", 16,
            "expected where, group by, having, limit, order by or the end of the statement but found 'wher'"
        ),
        ("select * from A where", 21, "expected a field name, '(' or 'related' but found the end of the statement"),
        (
            "select * from A where a", 23,
            "expected an operator (=, !=, <>, <, <=, >, >=, like, regexp, in, is, all, near, within) after 'a' but found "
                + "the end of the statement"
        ),
        ("select * from A where a = ", 26, "expected a value but found the end of the statement"),
        (
            "select * from A where (a = 1", 28,
            "expected ')' to close the '(' at byte 22 but found the end of the statement"
        ),
        (
            "select * from A where a = 1 and", 31,
            "expected a field name, '(' or 'related' but found the end of the statement"
        ),
        ("select * from A where a not = 1", 28, "expected 'like', 'regexp' or 'in' after 'not' but found '='"),
        ("select * from A where a is null", 27, "expected 'exists' or 'not exists' after 'is' but found 'null'"),
        ("select * from A where a like 5", 29, "expected a quoted pattern after 'like' but found a number"),
        ("select * from A where a = 'x", 26, "expected a closing quote for the string"),
        ("select * from A where a = #", 26, "unexpected character"),
        ("select * from A where a ! 1", 24, "expected '=' after '!'"),
        ("select * from A where 1a = 1", 22, "expected a number, but it runs into a name"),
        (
            "select * from A where a-b = 1", 23,
            "expected an operator (=, !=, <>, <, <=, >, >=, like, regexp, in, is, all, near, within) after 'a' but found '-'"
        ),
        ("select * from A where _x = 1", 22, "invalid field name '_x'"),
        (
            "select * from A where a = foo(1)", 26,
            "unknown function 'foo' (expected date, pointer, geopoint, file or current_timestamp)"
        ),
        ("select * from A where a = date('yesterday')", 31, "date() expects 'yyyy-MM-dd HH:mm:ss'"),
        ("select * from A where a = pointer('Bad Class', 'x')", 34, "pointer() needs a valid class name"),
        (
            "select * from A where a = geopoint(200, 10)", 26,
            "geopoint() is out of range (longitude −180…180, latitude −90…90)"
        ),
        (
            "select * from A where g near [10, 95]", 29,
            "the point is out of range (longitude −180…180, latitude −90…90)"
        ),
        (
            "select * from A where g near 5", 29,
            "expected a point [longitude, latitude], geopoint(…) or '?' after 'near' but found a number"
        ),
        ("select * from A where g near [1,2] max -1 km", 39, "the distance after 'max' must not be negative"),
        (
            "select * from A where g within [1,2] [3,4]", 37,
            "expected 'and' between the corners of 'within' but found '['"
        ),
        (
            "select * from A where g within [1,5] and [3,4]", 31,
            "the southwest corner of 'within' is north of the northeast corner"
        ),
        ("select * from A where a = current_timestamp()", 26, "current_timestamp() has no clock here"),
        ("select * from A where a in (select from B)", 35, "expected '*' or a key after 'select' but found 'from'"),
        (
            "select * from A where a in (select * from B where b = 1", 55,
            "expected ')' to close the sub-query at byte 27 but found the end of the statement"
        ),
        (
            "select * from A where a in 5", 27,
            "expected '(' with values or a sub-query, '[' or '?' after 'in' but found a number"
        ),
        (
            "select * from A where related a.b to pointer('P','x')", 30,
            "the relation key after 'related' must be a single field"
        ),
        ("select * from A where related r to 5", 35, "expected pointer(className, objectId) after 'to'"),
        ("select * from A limit -1", 22, "limit and skip must not be negative"),
        ("select * from A limit 1.5", 22, "expected an integer for limit and skip"),
        ("select * from A limit x", 22, "expected a number or '?' after 'limit' but found 'x'"),
        ("select * from A limit 1 limit 2", 24, "expected at most one limit but found 'limit'"),
        ("select * from A order score", 22, "expected 'by' after 'order' but found 'score'"),
        ("select * from A order by", 24, "expected a field to order by but found the end of the statement"),
        ("select * from A group by ?", 25, "expected a field to group by but found '?'"),
        ("select sum(a) from A group by b having _sumA > ?", 47, "placeholders cannot be used in having"),
        ("select sum(a) from A having x not like 'a'", 39, "'not like' and 'not regexp' cannot be used in having"),
        ("select * from A; select", 17, "expected the end of the statement after ';' but found 'select'"),
        (
            "select from A", 7,
            "expected a column, '*', count(*), include or sum/average/max/min() in the select list but found 'from'"
        ),
        ("select count(* from A", 15, "expected ')' to close count( but found 'from'"),
        ("select * from A where a = `b`", 26, "expected a value but found `b`"),
        ("select * from A where a = ``", 26, "expected a name between the backticks"),
    ])
    func messagesAndOffsets(bql: String, offset: Int, message: String) {
        let error = error(bql)
        #expect(error?.offset == offset)
        #expect(error?.message == message)
        #expect(error?.description == "\(message) at byte \(offset)")
    }

    @Test func placeholderCountMustMatch() {
        let missing = error("select * from A where a = ? and b = ?", ["x"])
        #expect(missing?.message == "placeholder 2 has no value (1 value(s) given)")
        #expect(missing?.offset == 36)
        let extra = error("select * from A where a = ?", ["x", "y"])
        #expect(extra?.message == "the statement has 1 placeholder(s) but 2 value(s) were given")
        #expect(extra?.offset == 27)
        #expect(error("select * from A limit ?", ["ten"])?.message == "expected an integer for limit and skip")
        let notArray = error("select * from A where a in ?", ["x"])
        #expect(notArray?.offset == 27)
        #expect(notArray?.message == "expected an array after 'in'")
        #expect(
            error("select * from A where a = pointer(?, ?)", ["_User", 5])?.message
                == "pointer() expects an objectId as a string")
    }

    @Test func offsetsCountBytesNotCharacters() {
        // "你好" is six bytes.
        let error = error("select * from A where n = '你好' and")
        #expect(error?.offset == 38)
    }

    @Test func patternsTheRegexEngineRefusesAre601() {
        let pattern = String(repeating: "a", count: BoundedRegex.maximumPatternLength + 1)
        let error = error("select * from A where n regexp '\(pattern)'")
        #expect(error?.offset == 31)
        #expect(error?.message.hasPrefix("unsupported pattern for 'n': ") == true)
        #expect(
            self.error("select * from A where n like ?", [.string(String(repeating: "b", count: 2000))])?.offset == 29)
    }

    @Test func valuesAreNotEchoed() {
        let error = error("select * from A where password = 'hunter2' 'again'")
        #expect(error?.description.contains("hunter2") == false)
        #expect(error?.description.contains("again") == false)
    }

    /// Each level adds one parenthesis but two `where` levels (`$and` of two `$or`s), so the `where` limit is
    /// reached first; the error points at `where`.
    @Test func conditionsStayWithinTheWhereNestingLimit() {
        var condition = "z = 1"
        for level in 0..<20 { condition = "(\(condition) or a\(level) = 1) and (b = 1 or c = 1)" }
        let error = error("select * from A where " + condition)
        #expect(error?.offset == 16)
        #expect(error?.message == "where nests more than 32 levels of $and, $or and sub-queries")
    }

    @Test func lengthAndNestingAreBounded() {
        let long = "select * from A where a = '" + String(repeating: "x", count: BQLParser.maximumLength) + "'"
        #expect(error(long)?.message == "statement longer than 4096 bytes")
        let deep =
            "select * from A where " + String(repeating: "(", count: 40) + "a = 1" + String(repeating: ")", count: 40)
        #expect(error(deep)?.message == "nesting deeper than 32 levels")
        let ok =
            "select * from A where " + String(repeating: "(", count: 31) + "a = 1" + String(repeating: ")", count: 31)
        #expect((try? BQLParser.parse(ok)) != nil)
        let arrays =
            "select * from A where a = " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(error(arrays)?.message == "nesting deeper than 32 levels")
        var subQueries = "select * from A where a in (select * from A where a in "
        for _ in 0..<20 { subQueries += "(select * from A where a in " }
        #expect(error(subQueries + "(1)")?.message == "nesting deeper than 32 levels")
    }
}
