package import BmobWire

/// Parses Bmob Query Language (`GET /1/cloudQuery?bql=…&values=[…]`, native `cloud_query`) into a
/// ``BQLStatement``.
///
/// The grammar, keywords in any case:
///
/// ```
/// select [count(*),] <columns | * | include p | sum(f) | average(f) | max(f) | min(f)>, …
///   from <Class> [where <condition>] [group by f, …] [having <condition>]
///   [limit [skip,] n] [order by [-|+]a, … [asc|desc]] [;]
/// ```
///
/// The clauses after `where` may come in any order, each once. Conditions combine predicates with `and`
/// (binding tighter), `or` and parentheses; `and where` is read as `and`, as one DOC example writes it.
/// Predicates on a field path: `= != <> < <= > >=`, `[not] like 'pattern'` (``LikePattern``), `[not] regexp
/// 'pattern'`, `[not] in (values)`, `[not] in (select key from C where …)` (`$select`/`$dontSelect`), `[not] in
/// (select * from C where …)` (`$inQuery`/`$notInQuery`), `is [not] exists`, `all (values)`, `near [lng, lat]
/// [max d km|miles|radians]` (radians without a unit), `within [lng, lat] and [lng, lat]`; and
/// `related <key> to pointer(C, id)` on its own. `not like` and `not regexp` become `$dontSelect` of the same
/// field from the same class where it matches, which selects exactly the objects whose field does not match.
///
/// Values: strings in single or double quotes, numbers (with a sign), `true`, `false`, `null`, arrays
/// `[…]`, objects `{'__type': 'Date', 'iso': …}`, `?` placeholders, and the functions `date('yyyy-MM-dd
/// HH:mm:ss')`, `pointer(cls, id)`, `geopoint(lng, lat)` (longitude first), `file(name, url)` and
/// `current_timestamp()`. A bare word that is not a keyword is read as a string (DOC writes
/// `username= smile`). Names may be quoted with backticks; system classes need their underscore (`_User`).
///
/// `?` placeholders, in `where` and `limit` only, take `values` in order; their number must match. Every
/// failure is a ``QueryParseError`` with code 601, a message saying what was expected, and the byte offset.
/// Statements longer than ``maximumLength`` bytes and nesting deeper than ``maximumDepth`` are refused, and so
/// are lists longer than a find allows (``FindQuery/maximumKeys`` columns, ``FindQuery/maximumIncludes``
/// includes, ``FindQuery/maximumAggregateFields`` fields per function or `group by`,
/// ``FindQuery/maximumOrderKeys`` `order by` keys) and conditions over ``WhereParser``'s size limits.
package struct BQLParser {
    /// Longest statement accepted, in UTF-8 bytes (Bmob's documented limit).
    package static let maximumLength = 4096
    /// Deepest nesting of parentheses, sub-queries, arrays and objects.
    package static let maximumDepth = 32

    /// Words that never stand for a bare string value.
    private static let reservedWords: Set<String> = [
        "select", "from", "where", "and", "or", "not", "in", "like", "regexp", "is", "exists", "all", "near",
        "within", "max", "limit", "order", "group", "by", "having", "asc", "desc", "related", "to", "true", "false",
        "null", "include", "count",
    ]

    private let tokens: [BQLToken]
    private let values: [JSONValue]
    private let nowMilliseconds: Int64?
    private let length: Int
    private var position = 0
    private var valueIndex = 0
    private var depth = 0
    private var inHaving = false

    /// Parses one statement.
    ///
    /// - Parameters:
    ///   - bql: The statement.
    ///   - values: The values for its `?` placeholders, in order.
    ///   - nowMilliseconds: The server's current time for `current_timestamp()`, in milliseconds since 1970
    ///     UTC; without it that function is an error.
    /// - Returns: The statement.
    /// - Throws: ``QueryParseError`` with code 601.
    package static func parse(
        _ bql: String, values: [JSONValue] = [], nowMilliseconds: Int64? = nil
    ) throws(QueryParseError) -> BQLStatement {
        let length = bql.utf8.count
        guard length <= maximumLength else {
            throw .invalidBQL("statement longer than \(maximumLength) bytes", offset: maximumLength)
        }
        var parser = BQLParser(
            tokens: try BQLLexer.tokenize(bql), values: values, nowMilliseconds: nowMilliseconds, length: length)
        return try parser.statement()
    }

    private init(tokens: [BQLToken], values: [JSONValue], nowMilliseconds: Int64?, length: Int) {
        self.tokens = tokens
        self.values = values
        self.nowMilliseconds = nowMilliseconds
        self.length = length
    }

    // MARK: - Statement

    /// What the select list named.
    private struct Selection {
        var columns: [String] = []
        var selectsAll = false
        var count = false
        var include: [String] = []
        var sum: [String] = []
        var average: [String] = []
        var max: [String] = []
        var min: [String] = []

        var hasFunctions: Bool { !sum.isEmpty || !average.isEmpty || !max.isEmpty || !min.isEmpty }
    }

    private mutating func statement() throws(QueryParseError) -> BQLStatement {
        try expectKeyword("select")
        let selection = try selectList()
        try expectKeyword("from", "'from' or ',' after the select list")
        let className = try className()
        var condition: QueryCondition?
        let whereOffset = current.offset
        if consumeKeyword("where") { condition = try orCondition(className: className, having: false) }
        var groupBy: [String]?
        var having: QueryCondition?
        var havingOffset = 0
        var paging: (skip: Int, limit: Int)?
        var order: [OrderKey]?
        clauses: while true {
            let token = current
            if isKeyword("group") {
                guard groupBy == nil else { throw fail("at most one group by") }
                advance()
                try expectKeyword("by", "'by' after 'group'")
                groupBy = try groupByList()
            } else if isKeyword("having") {
                guard having == nil else { throw fail("at most one having") }
                havingOffset = token.offset
                advance()
                inHaving = true
                having = try orCondition(className: className, having: true)
                inHaving = false
            } else if isKeyword("limit") {
                guard paging == nil else { throw fail("at most one limit") }
                advance()
                paging = try limitClause()
            } else if isKeyword("order") {
                guard order == nil else { throw fail("at most one order by") }
                advance()
                try expectKeyword("by", "'by' after 'order'")
                order = try orderList()
            } else if isSymbol(";") {
                advance()
                guard case .end = current.kind else { throw fail("the end of the statement after ';'") }
                break clauses
            } else if case .end = token.kind {
                break clauses
            } else {
                let clauses = "group by, having, limit, order by or the end of the statement"
                throw fail(condition == nil && groupBy == nil && having == nil ? "where, \(clauses)" : clauses)
            }
        }
        guard valueIndex == values.count else {
            throw .invalidBQL(
                "the statement has \(valueIndex) placeholder(s) but \(values.count) value(s) were given",
                offset: length)
        }
        if let condition { try Self.check(condition, having: false, offset: whereOffset) }
        if let having { try Self.check(having, having: true, offset: havingOffset) }

        var query = FindQuery(className: className, condition: condition)
        query.order = order ?? []
        let statistics = selection.hasFunctions || groupBy != nil || having != nil
        if statistics {
            query.aggregation = Aggregation(
                groupBy: groupBy ?? [], groupCount: selection.count, sum: selection.sum, average: selection.average,
                max: selection.max, min: selection.min, having: having)
        }
        let countRequested = selection.count && !statistics
        query.count = countRequested
        query.include = selection.include
        query.keys = selection.selectsAll || selection.columns.isEmpty ? nil : selection.columns
        if let paging {
            query.skip = paging.skip
            query.limit = Swift.min(paging.limit, FindQuery.maximumLimit)
        } else if countRequested, selection.columns.isEmpty, !selection.selectsAll, selection.include.isEmpty {
            query.limit = 0
        }
        return BQLStatement(
            query: query, countRequested: countRequested, columns: selection.columns,
            selectsAll: selection.selectsAll, include: selection.include)
    }

    /// Holds a condition to what ``WhereParser`` accepts, so that a BQL condition always survives
    /// ``WhereEncoder`` and a `where` round trip (for example within its nesting limit).
    private static func check(_ condition: QueryCondition, having: Bool, offset: Int) throws(QueryParseError) {
        let json = WhereEncoder.encode(condition)
        do throws(QueryParseError) {
            _ = having ? try WhereParser.parseHaving(json) : try WhereParser.parse(json)
        } catch {
            throw .invalidBQL(error.message, offset: offset)
        }
    }

    private mutating func selectList() throws(QueryParseError) -> Selection {
        var selection = Selection()
        repeat {
            if consumeSymbol("*") {
                selection.selectsAll = true
            } else if isKeyword("count"), isSymbol("(", at: 1) {
                advance()
                advance()
                if !consumeSymbol("*") { _ = try fieldPath(having: false, expected: "'*' or a field in count()") }
                try expectSymbol(")", "')' to close count(")
                selection.count = true
            } else if let function = aggregateFunction(), isSymbol("(", at: 1) {
                advance()
                advance()
                let field = try fieldPath(having: false, expected: "a field in \(function)()")
                try expectSymbol(")", "')' to close \(function)(")
                let named: Int =
                    switch function {
                    case "sum": selection.sum.count
                    case "average", "avg": selection.average.count
                    case "max": selection.max.count
                    default: selection.min.count
                    }
                try checkListLength(named, FindQuery.maximumAggregateFields, "\(function)() fields")
                switch function {
                case "sum": selection.sum.append(field)
                case "average", "avg": selection.average.append(field)
                case "max": selection.max.append(field)
                default: selection.min.append(field)
                }
            } else if isKeyword("include"), !isSymbol(",", at: 1), !isKeyword("from", at: 1) {
                advance()
                let start = current.offset
                let path = try dottedName(expected: "a pointer field after 'include'")
                guard QueryPath.isValidInclude(path) else {
                    throw .invalidBQL("invalid include path \(QueryParseError.quoted(path))", offset: start)
                }
                try checkListLength(selection.include.count, FindQuery.maximumIncludes, "include paths")
                selection.include.append(path)
            } else {
                let expected = "a column, '*', count(*), include or sum/average/max/min() in the select list"
                guard !isKeyword("from") else { throw fail(expected) }
                try checkListLength(selection.columns.count, FindQuery.maximumKeys, "columns")
                selection.columns.append(try fieldPath(having: false, expected: expected))
            }
        } while consumeSymbol(",")
        return selection
    }

    private func aggregateFunction() -> String? {
        guard case .word(let word) = current.kind else { return nil }
        let lower = word.lowercased()
        return ["sum", "average", "avg", "max", "min"].contains(lower) ? lower : nil
    }

    private mutating func className() throws(QueryParseError) -> String {
        let start = current.offset
        guard let name = identifier(current) else { throw fail("a class name") }
        guard BmobName.isValidClassName(name) else {
            throw .invalidBQL(
                "invalid class name \(QueryParseError.quoted(name)) (system classes are _User, _Role, _Installation)",
                offset: start)
        }
        advance()
        return name
    }

    private mutating func groupByList() throws(QueryParseError) -> [String] {
        var fields: [String] = []
        repeat {
            try checkListLength(fields.count, FindQuery.maximumAggregateFields, "group by fields")
            fields.append(try fieldPath(having: false, expected: "a field to group by"))
        } while consumeSymbol(",")
        return fields
    }

    private mutating func limitClause() throws(QueryParseError) -> (skip: Int, limit: Int) {
        let first = try integerOperand("a number or '?' after 'limit'")
        guard consumeSymbol(",") else { return (0, first) }
        let second = try integerOperand("a number or '?' after 'limit skip,'")
        return (first, second)
    }

    /// `-a, +b, c desc`: a sign or a direction after a key followed by a comma fixes that key; a direction at
    /// the end applies to every key without its own.
    private mutating func orderList() throws(QueryParseError) -> [OrderKey] {
        var keys: [(path: String, descending: Bool, fixed: Bool)] = []
        var trailing: Bool?
        repeat {
            var descending = false
            var fixed = false
            if consumeSymbol("-") {
                descending = true
                fixed = true
            } else if consumeSymbol("+") {
                fixed = true
            }
            let path = try fieldPath(having: true, expected: "a field to order by")
            if isKeyword("asc") || isKeyword("desc") {
                let direction = isKeyword("desc")
                advance()
                if isSymbol(",") {
                    descending = direction
                    fixed = true
                } else {
                    trailing = direction
                }
            }
            try checkListLength(keys.count, FindQuery.maximumOrderKeys, "order by keys")
            keys.append((path, descending, fixed))
        } while trailing == nil && consumeSymbol(",")
        return keys.map { OrderKey(path: $0.path, descending: $0.fixed ? $0.descending : (trailing ?? false)) }
    }

    // MARK: - Conditions

    private mutating func orCondition(className: String, having: Bool) throws(QueryParseError) -> QueryCondition {
        var parts = [try andCondition(className: className, having: having)]
        while consumeKeyword("or") {
            _ = consumeKeyword("where")
            parts.append(try andCondition(className: className, having: having))
        }
        guard parts.count > 1 else { return parts[0] }
        var flat: [QueryCondition] = []
        for part in parts {
            if case .or(let children) = part { flat += children } else { flat.append(part) }
        }
        return .or(flat)
    }

    /// Joins predicates with `and`: nested `and`s are flattened and predicates on the same field merged into
    /// one ``QueryCondition/field(path:constraints:)``.
    private mutating func andCondition(className: String, having: Bool) throws(QueryParseError) -> QueryCondition {
        var parts = [try unary(className: className, having: having)]
        while consumeKeyword("and") {
            _ = consumeKeyword("where")
            parts.append(try unary(className: className, having: having))
        }
        guard parts.count > 1 else { return parts[0] }
        var merged: [QueryCondition] = []
        var fieldIndexes: [String: Int] = [:]
        for part in parts {
            let children: [QueryCondition]
            if case .and(let nested) = part { children = nested } else { children = [part] }
            for child in children {
                if case .field(let path, let constraints) = child {
                    if let index = fieldIndexes[path], case .field(_, let existing) = merged[index] {
                        merged[index] = .field(path: path, constraints: existing + constraints)
                        continue
                    }
                    fieldIndexes[path] = merged.count
                }
                merged.append(child)
            }
        }
        return merged.count == 1 ? merged[0] : .and(merged)
    }

    private mutating func unary(className: String, having: Bool) throws(QueryParseError) -> QueryCondition {
        try enter()
        defer { depth -= 1 }
        if isSymbol("(") {
            let open = current.offset
            advance()
            let condition = try orCondition(className: className, having: having)
            try expectSymbol(")", "')' to close the '(' at byte \(open)")
            return condition
        }
        if isKeyword("related"), identifier(peek(1)) != nil, isKeyword("to", at: 2) || isSymbol(".", at: 2) {
            guard !having else { throw fail("a condition on aggregate results; related cannot be used in having") }
            return try related()
        }
        return try predicate(className: className, having: having)
    }

    private mutating func related() throws(QueryParseError) -> QueryCondition {
        advance()
        let keyStart = current.offset
        let key = try fieldPath(having: false, expected: "a relation field after 'related'")
        guard BmobName.isValidFieldName(key) else {
            throw .invalidBQL("the relation key after 'related' must be a single field", offset: keyStart)
        }
        try expectKeyword("to", "'to' after 'related \(key)'")
        let start = current.offset
        let value = try value()
        guard let pointer = PointerValue(json: value) else {
            throw .invalidBQL("expected pointer(className, objectId) after 'to'", offset: start)
        }
        return .relatedTo(object: pointer, key: key)
    }

    private mutating func predicate(className: String, having: Bool) throws(QueryParseError) -> QueryCondition {
        let path = try fieldPath(having: having, expected: "a field name, '(' or 'related'")
        let field = QueryParseError.quoted(path)
        if case .symbol(let symbol) = current.kind, ["=", "==", "!=", "<>", "<", "<=", ">", ">="].contains(symbol) {
            advance()
            let start = current.offset
            let operand = try value()
            try checkGeoPoints(operand, at: start)
            let constraint: FieldConstraint
            switch symbol {
            case "=", "==": constraint = .equalTo(operand)
            case "!=", "<>": constraint = .notEqualTo(operand)
            default:
                switch operand {
                case .int, .double, .string, .bool: break
                case .object(let members) where members["__type"]?.stringValue != nil: break
                default:
                    throw .invalidBQL(
                        "expected a number, string, boolean or date after '\(symbol)' on \(field)", offset: start)
                }
                switch symbol {
                case "<": constraint = .lessThan(operand)
                case "<=": constraint = .lessThanOrEqualTo(operand)
                case ">": constraint = .greaterThan(operand)
                default: constraint = .greaterThanOrEqualTo(operand)
                }
            }
            return .field(path: path, constraints: [constraint])
        }
        var negated = false
        if isKeyword("not") {
            advance()
            guard isKeyword("like") || isKeyword("regexp") || isKeyword("in") else {
                throw fail("'like', 'regexp' or 'in' after 'not'")
            }
            negated = true
        }
        if consumeKeyword("like") || consumeKeyword("regexp") {
            let isLike = isKeyword("like", at: -1)
            let start = current.offset
            let text = try stringOperand(isLike ? "a quoted pattern after 'like'" : "a quoted pattern after 'regexp'")
            let (pattern, options) = isLike ? LikePattern.regex(fromLike: text) : (text, "")
            do throws(BoundedRegexError) {
                _ = try BoundedRegex(pattern: pattern, options: options)
            } catch {
                throw .invalidBQL("unsupported pattern for \(field): \(error.message)", offset: start)
            }
            let matches = FieldConstraint.matchesRegex(pattern: pattern, options: options)
            guard negated else { return .field(path: path, constraints: [matches]) }
            guard !having else {
                throw .invalidBQL("'not like' and 'not regexp' cannot be used in having", offset: start)
            }
            let matching = SubQuery(className: className, condition: .field(path: path, constraints: [matches]))
            return .field(path: path, constraints: [.doesNotMatchKeyInQuery(key: path, query: matching)])
        }
        if consumeKeyword("in") {
            return .field(path: path, constraints: [try inOperand(negated: negated, having: having)])
        }
        if consumeKeyword("is") {
            let not = consumeKeyword("not")
            try expectKeyword("exists", not ? "'exists' after 'is not'" : "'exists' or 'not exists' after 'is'")
            return .field(path: path, constraints: [.exists(!not)])
        }
        if consumeKeyword("all") {
            return .field(
                path: path,
                constraints: [.containsAll(try listOperand(after: "all", "'(' or '[' with values after 'all'"))])
        }
        if consumeKeyword("near") {
            let point = try geoOperand("a point [longitude, latitude], geopoint(…) or '?' after 'near'")
            var distance: Double?
            if consumeKeyword("max") {
                let start = current.offset
                let number = try numberOperand("a distance after 'max'")
                guard number >= 0 else {
                    throw .invalidBQL("the distance after 'max' must not be negative", offset: start)
                }
                if consumeKeyword("km") || consumeKeyword("kilometers") || consumeKeyword("kilometer") {
                    distance = number / WhereParser.earthRadiusKilometers
                } else if consumeKeyword("miles") || consumeKeyword("mile") {
                    distance = number / WhereParser.earthRadiusMiles
                } else {
                    _ = consumeKeyword("radians") || consumeKeyword("radian")
                    distance = number
                }
            }
            return .field(path: path, constraints: [.nearSphere(point, maxDistanceRadians: distance)])
        }
        if consumeKeyword("within") {
            let start = current.offset
            let southwest = try geoOperand("the southwest corner [longitude, latitude] after 'within'")
            try expectKeyword("and", "'and' between the corners of 'within'")
            let northeast = try geoOperand("the northeast corner [longitude, latitude] after 'and'")
            guard southwest.latitude <= northeast.latitude else {
                throw .invalidBQL("the southwest corner of 'within' is north of the northeast corner", offset: start)
            }
            return .field(path: path, constraints: [.withinBox(southwest: southwest, northeast: northeast)])
        }
        throw fail("an operator (=, !=, <>, <, <=, >, >=, like, regexp, in, is, all, near, within) after \(field)")
    }

    private mutating func inOperand(negated: Bool, having: Bool) throws(QueryParseError) -> FieldConstraint {
        guard isSymbol("("), isKeyword("select", at: 1) else {
            let values = try listOperand(after: "in", "'(' with values or a sub-query, '[' or '?' after 'in'")
            return negated ? .notContainedIn(values) : .containedIn(values)
        }
        guard !having else { throw fail("values after 'in'; sub-queries cannot be used in having") }
        let open = current.offset
        advance()
        advance()
        try enter()
        defer { depth -= 1 }
        var key: String?
        if !consumeSymbol("*") {
            guard !isKeyword("from") else { throw fail("'*' or a key after 'select'") }
            key = try fieldPath(having: false, expected: "'*' or a key after 'select'")
        }
        try expectKeyword("from", "'from' in the sub-query")
        let className = try className()
        var condition: QueryCondition?
        if consumeKeyword("where") { condition = try orCondition(className: className, having: false) }
        try expectSymbol(")", "')' to close the sub-query at byte \(open)")
        let query = SubQuery(className: className, condition: condition)
        if let key {
            return negated
                ? .doesNotMatchKeyInQuery(key: key, query: query) : .matchesKeyInQuery(key: key, query: query)
        }
        return negated ? .doesNotMatchQuery(query) : .matchesQuery(query)
    }

    // MARK: - Operands

    /// `(v, …)`, `[v, …]` or `?` holding an array.
    private mutating func listOperand(after keyword: String, _ expected: String) throws(QueryParseError) -> [JSONValue]
    {
        let start = current.offset
        let list: [JSONValue]
        if isSymbol("(") {
            advance()
            list = try elements(until: ")")
        } else if isSymbol("[") || current.kind == .placeholder {
            guard case .array(let array) = try value() else {
                throw .invalidBQL("expected an array after '\(keyword)'", offset: start)
            }
            list = array
        } else {
            throw fail(expected)
        }
        try checkGeoPoints(.array(list), at: start)
        return list
    }

    /// A string literal or a `?` holding a string.
    private mutating func stringOperand(_ expected: String) throws(QueryParseError) -> String {
        let start = current.offset
        switch current.kind {
        case .string(let text):
            advance()
            return text
        case .placeholder:
            advance()
            guard case .string(let text) = try placeholder(at: start) else {
                throw .invalidBQL("expected a string value for the placeholder", offset: start)
            }
            return text
        default:
            throw fail(expected)
        }
    }

    private mutating func numberOperand(_ expected: String) throws(QueryParseError) -> Double {
        let start = current.offset
        guard case .number = current.kind else {
            guard current.kind == .placeholder || isSymbol("-") || isSymbol("+") else { throw fail(expected) }
            guard let number = try value().doubleValue else {
                throw .invalidBQL("expected a number value for \(expected)", offset: start)
            }
            return number
        }
        return try value().doubleValue ?? 0
    }

    private mutating func integerOperand(_ expected: String) throws(QueryParseError) -> Int {
        let start = current.offset
        let operand: JSONValue
        switch current.kind {
        case .number(let number):
            advance()
            operand = number
        case .placeholder:
            advance()
            operand = try placeholder(at: start)
        case .symbol("-"):
            throw .invalidBQL("limit and skip must not be negative", offset: start)
        default:
            throw fail(expected)
        }
        var integer: Int64?
        switch operand {
        case .int(let value): integer = value
        case .double(let value): integer = Int64(exactly: value)
        case .string(let text): integer = Int64(text.trimmingSpaces())
        default: integer = nil
        }
        guard let integer else { throw .invalidBQL("expected an integer for limit and skip", offset: start) }
        guard integer >= 0 else { throw .invalidBQL("limit and skip must not be negative", offset: start) }
        return Int(clamping: integer)
    }

    /// `[lng, lat]`, `geopoint(lng, lat)`, a GeoPoint object, or `?` holding either.
    private mutating func geoOperand(_ expected: String) throws(QueryParseError) -> GeoPointValue {
        let start = current.offset
        guard isSymbol("[") || isSymbol("{") || isKeyword("geopoint") || current.kind == .placeholder else {
            throw fail(expected)
        }
        let operand = try value()
        let point: GeoPointValue
        if case .array(let pair) = operand, pair.count == 2, let longitude = pair[0].doubleValue,
            let latitude = pair[1].doubleValue
        {
            point = GeoPointValue(latitude: latitude, longitude: longitude)
        } else if let geoPoint = GeoPointValue(json: operand) {
            point = geoPoint
        } else {
            throw .invalidBQL("expected \(expected)", offset: start)
        }
        guard point.isValid else {
            throw .invalidBQL("the point is out of range (longitude −180…180, latitude −90…90)", offset: start)
        }
        return point
    }

    /// Range-checks GeoPoint objects in a value and in the elements of an array value.
    private func checkGeoPoints(_ value: JSONValue, at offset: Int) throws(QueryParseError) {
        let candidates: [JSONValue]
        if case .array(let elements) = value { candidates = elements } else { candidates = [value] }
        for candidate in candidates where candidate["__type"] == .string("GeoPoint") {
            guard let point = GeoPointValue(json: candidate), point.isValid else {
                throw .invalidBQL("a GeoPoint is malformed or out of range", offset: offset)
            }
        }
    }

    // MARK: - Values

    private mutating func value() throws(QueryParseError) -> JSONValue {
        let token = current
        switch token.kind {
        case .string(let text):
            advance()
            return .string(text)
        case .number(let number):
            advance()
            return number
        case .placeholder:
            advance()
            return try placeholder(at: token.offset)
        case .symbol(let sign) where sign == "-" || sign == "+":
            guard case .number(let number) = peek(1).kind else { throw fail("a value", at: 1) }
            advance()
            advance()
            guard sign == "-" else { return number }
            switch number {
            case .int(let integer): return .int(-integer)
            case .double(let double): return .double(-double)
            default: return number
            }
        case .symbol("["):
            advance()
            try enter()
            defer { depth -= 1 }
            return .array(try elements(until: "]"))
        case .symbol("{"):
            advance()
            try enter()
            defer { depth -= 1 }
            return try objectLiteral()
        case .word(let word):
            let lower = word.lowercased()
            if isSymbol("(", at: 1) { return try function(lower) }
            switch lower {
            case "true":
                advance()
                return .bool(true)
            case "false":
                advance()
                return .bool(false)
            case "null":
                advance()
                return .null
            default:
                guard !Self.reservedWords.contains(lower) else { throw fail("a value") }
                advance()
                return .string(word)
            }
        default:
            throw fail("a value")
        }
    }

    /// Values separated by commas up to `close`, which is consumed; may be empty.
    private mutating func elements(until close: String) throws(QueryParseError) -> [JSONValue] {
        var list: [JSONValue] = []
        if consumeSymbol(close) { return list }
        repeat {
            list.append(try value())
        } while consumeSymbol(",")
        try expectSymbol(close, "',' or '\(close)' in the list")
        return list
    }

    private mutating func objectLiteral() throws(QueryParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if consumeSymbol("}") { return .object(members) }
        repeat {
            let key: String
            switch current.kind {
            case .string(let text), .word(let text), .quotedIdentifier(let text): key = text
            default: throw fail("a key in the object")
            }
            advance()
            try expectSymbol(":", "':' after the key")
            members[key] = try value()
        } while consumeSymbol(",")
        try expectSymbol("}", "',' or '}' in the object")
        return .object(members)
    }

    private mutating func function(_ name: String) throws(QueryParseError) -> JSONValue {
        let start = current.offset
        advance()
        advance()
        let result: JSONValue
        switch name {
        case "date":
            let argument = current.offset
            switch try value() {
            case .string(let iso):
                guard BmobDateFormat.parse(iso) != nil else {
                    throw .invalidBQL("date() expects 'yyyy-MM-dd HH:mm:ss'", offset: argument)
                }
                result = ["__type": "Date", "iso": .string(iso)]
            case let date where date["__type"] == .string("Date"):
                result = date
            default:
                throw .invalidBQL("date() expects 'yyyy-MM-dd HH:mm:ss'", offset: argument)
            }
        case "pointer":
            let classStart = current.offset
            let className = try stringArgument("pointer", "a class name")
            guard BmobName.isValidClassName(className) else {
                throw .invalidBQL("pointer() needs a valid class name", offset: classStart)
            }
            try expectSymbol(",", "',' between the arguments of pointer()")
            let idStart = current.offset
            let objectId = try stringArgument("pointer", "an objectId")
            guard !objectId.isEmpty, objectId.utf8.count <= BmobName.maximumLength else {
                throw .invalidBQL("pointer() needs an objectId", offset: idStart)
            }
            result = PointerValue(className: className, objectId: objectId).json
        case "geopoint":
            let longitude = try numberArgument("geopoint", "the longitude")
            try expectSymbol(",", "',' between the longitude and latitude of geopoint()")
            let latitude = try numberArgument("geopoint", "the latitude")
            let point = GeoPointValue(latitude: latitude, longitude: longitude)
            guard point.isValid else {
                throw .invalidBQL(
                    "geopoint() is out of range (longitude −180…180, latitude −90…90)", offset: start)
            }
            result = point.json
        case "file":
            let filename = try stringArgument("file", "a file name")
            try expectSymbol(",", "',' between the name and URL of file()")
            let url = try stringArgument("file", "a URL")
            result = ["__type": "File", "filename": .string(filename), "url": .string(url)]
        case "current_timestamp":
            guard let nowMilliseconds else {
                throw .invalidBQL("current_timestamp() has no clock here", offset: start)
            }
            result = ["__type": "Date", "iso": .string(BmobDateFormat.format(millisecondsSince1970: nowMilliseconds))]
        default:
            throw .invalidBQL(
                "unknown function \(QueryParseError.quoted(name)) (expected date, pointer, geopoint, file or "
                    + "current_timestamp)", offset: start)
        }
        try expectSymbol(")", "')' to close \(name)(")
        return result
    }

    private mutating func stringArgument(_ function: String, _ what: String) throws(QueryParseError) -> String {
        let start = current.offset
        guard case .string(let text) = try value() else {
            throw .invalidBQL("\(function)() expects \(what) as a string", offset: start)
        }
        return text
    }

    private mutating func numberArgument(_ function: String, _ what: String) throws(QueryParseError) -> Double {
        let start = current.offset
        guard let number = try value().doubleValue else {
            throw .invalidBQL("\(function)() expects \(what) as a number", offset: start)
        }
        return number
    }

    private mutating func placeholder(at offset: Int) throws(QueryParseError) -> JSONValue {
        guard !inHaving else { throw .invalidBQL("placeholders cannot be used in having", offset: offset) }
        guard valueIndex < values.count else {
            throw .invalidBQL(
                "placeholder \(valueIndex + 1) has no value (\(values.count) value(s) given)", offset: offset)
        }
        defer { valueIndex += 1 }
        return values[valueIndex]
    }

    // MARK: - Names

    private func identifier(_ token: BQLToken) -> String? {
        switch token.kind {
        case .word(let word): word
        case .quotedIdentifier(let name): name
        default: nil
        }
    }

    /// Words joined by dots, as written (`weibo.author`, `list.0.name`).
    private mutating func dottedName(expected: String) throws(QueryParseError) -> String {
        guard var name = identifier(current) else { throw fail(expected) }
        advance()
        while isSymbol("."), peek(1).offset == current.offset + 1 {
            let component: String
            switch peek(1).kind {
            case .word(let word), .quotedIdentifier(let word): component = word
            case .number(.int(let index)): component = String(index)
            default: throw fail("a field name after '.'", at: 1)
            }
            advance()
            advance()
            name += "." + component
        }
        return name
    }

    /// A field path, checked with ``QueryPath``; with `having`, aggregate result names are allowed too.
    private mutating func fieldPath(having: Bool, expected: String) throws(QueryParseError) -> String {
        let start = current.offset
        let path = try dottedName(expected: expected)
        let valid = having ? QueryPath.isValidResultPath(path) : QueryPath.isValidFieldPath(path)
        guard valid else { throw .invalidBQL("invalid field name \(QueryParseError.quoted(path))", offset: start) }
        return path
    }

    // MARK: - Tokens

    private var current: BQLToken { tokens[position] }

    private func peek(_ distance: Int) -> BQLToken {
        tokens[Swift.max(0, Swift.min(position + distance, tokens.count - 1))]
    }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private func isKeyword(_ keyword: String, at distance: Int = 0) -> Bool {
        if case .word(let word) = peek(distance).kind { word.lowercased() == keyword } else { false }
    }

    private func isSymbol(_ symbol: String, at distance: Int = 0) -> Bool {
        peek(distance).kind == .symbol(symbol)
    }

    private mutating func consumeKeyword(_ keyword: String) -> Bool {
        guard isKeyword(keyword) else { return false }
        advance()
        return true
    }

    private mutating func consumeSymbol(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func expectKeyword(_ keyword: String, _ expected: String? = nil) throws(QueryParseError) {
        guard consumeKeyword(keyword) else { throw fail(expected ?? "'\(keyword)'") }
    }

    private mutating func expectSymbol(_ symbol: String, _ expected: String) throws(QueryParseError) {
        guard consumeSymbol(symbol) else { throw fail(expected) }
    }

    private mutating func enter() throws(QueryParseError) {
        guard depth < Self.maximumDepth else {
            throw .invalidBQL("nesting deeper than \(Self.maximumDepth) levels", offset: current.offset)
        }
        depth += 1
    }

    /// "expected X but found Y" at the token `distance` ahead.
    /// Refuses another item for a list that already holds `count` items when that would pass `maximum`; the
    /// error points at the current token.
    private func checkListLength(_ count: Int, _ maximum: Int, _ what: String) throws(QueryParseError) {
        guard count < maximum else {
            throw .invalidBQL("more than \(maximum) \(what)", offset: current.offset)
        }
    }

    private func fail(_ expected: String, at distance: Int = 0) -> QueryParseError {
        let token = peek(distance)
        return .invalidBQL("expected \(expected) but found \(token.summary)", offset: token.offset)
    }
}
