/// Reads the `where` of a Bmob query (REST `where` parameter, native `data.where`) into a ``QueryCondition``.
///
/// Every operator of the REST protocol is understood: bare values and `$eq` (equal, or "contains" for arrays),
/// `$ne $lt $lte $gt $gte $in $nin $all $exists $regex` (with `$options`), `$select $dontSelect $inQuery
/// $notInQuery`, `$nearSphere` (with `$maxDistanceInRadians`, `…InKilometers`, `…InMiles` or Parse's
/// `$maxDistance`, kept in radians), `$within: {$box: [southwest, northeast]}`, `$or`, `$and`, and
/// `$relatedTo` both at the top level and nested under a field key (as the Python client sends it).
///
/// Several keys in one object become an ``QueryCondition/and(_:)`` in key order; several operators on one key
/// become one ``QueryCondition/field(path:constraints:)`` with a constraint per operator, in operator order.
///
/// Untrusted input is the normal case: field paths are checked with ``QueryPath``, class names with
/// ``BmobName``, operands by type, and `$and`, `$or` and sub-queries nest at most ``maximumDepth`` levels.
/// Failures are ``QueryParseError``s with code 102, or 117 for coordinates out of range.
///
/// Size is bounded too, so that every `where` accepted fits SQLite's limits (an expression at most 1000 deep,
/// a parser stack of 100, 32766 bound values) with room to spare and its cost stays proportionate: sub-queries
/// nest at most ``maximumSubQueryDepth`` deep (102 beyond), and a `where` holds at most ``maximumConditions``
/// conditions and ``maximumTotalListLength`` listed values in all, each `$in`, `$nin` or `$all` at most
/// ``maximumListLength``. A `where` over a total limit is refused with 402 ("where too large") before any of
/// it runs.
package enum WhereParser {
    /// Deepest nesting of `$and`, `$or` and sub-query `where`s accepted below the top-level object.
    package static let maximumDepth = 32

    /// Most values one `$in`, `$nin` or `$all` may list.
    package static let maximumListLength = 10_000
    /// Most conditions one `where` (or `having`) may hold: each operator on a field (a bare value is one
    /// `$eq`), each `$relatedTo`, each value of an `$all` (each is tested on its own), and each empty object in
    /// an `$or` or `$and`; a condition inside n nested sub-queries counts n + 1 times. SQLite nests a chain of
    /// conditions one level per condition, and the chains of nested sub-queries add up again at every level,
    /// up to 1000 levels; real queries use a few dozen conditions at most.
    package static let maximumConditions = 500
    /// Deepest nesting of sub-queries (`$inQuery`, `$notInQuery`, `$select`, `$dontSelect`) inside one
    /// another: SQLite's parser stack overflows at six or seven.
    package static let maximumSubQueryDepth = 4
    /// Most values all the `$in`, `$nin` and `$all` lists of one `where` may hold together: each is bound to
    /// the statement, which takes 32766 at most.
    package static let maximumTotalListLength = 20_000
    /// Earth's radius for `$maxDistanceInKilometers`.
    package static let earthRadiusKilometers = 6371.0
    /// Earth's radius for `$maxDistanceInMiles`.
    package static let earthRadiusMiles = 3958.8

    /// Operators that only qualify another one on the same field, and so add no condition of their own.
    private static let companionOperators: Set<String> = [
        "$options", "$maxDistance", "$maxDistanceInRadians", "$maxDistanceInKilometers", "$maxDistanceInMiles",
    ]

    /// Keys a sub-query object may carry besides `className` and `where`; Bmob ignores them.
    private static let ignoredSubQueryKeys: Set<String> = ["limit", "skip", "order", "include", "keys", "count"]

    /// Reads a `where` object.
    ///
    /// - Parameter json: The `where` value; it must be an object.
    /// - Returns: The condition, or `nil` for `{}`.
    /// - Throws: ``QueryParseError`` with code 102, or 117 for a GeoPoint out of range.
    package static func parse(_ json: JSONValue) throws(QueryParseError) -> QueryCondition? {
        var tally = WhereSizeTally()
        return try parseObject(json, depth: 0, having: false, tally: &tally)
    }

    /// Reads a `where` from its JSON text, as the REST `where` parameter carries it.
    ///
    /// - Throws: ``QueryParseError`` with code 102 (with the byte offset for invalid JSON), or 117.
    package static func parse(text: String) throws(QueryParseError) -> QueryCondition? {
        try parse(parseJSON(text, parameter: "where"))
    }

    /// Reads a `having` object: like a `where`, except that keys may also name aggregate results such as
    /// `_sumScore` or `_count`.
    ///
    /// - Throws: ``QueryParseError`` with code 102, or 117.
    package static func parseHaving(_ json: JSONValue) throws(QueryParseError) -> QueryCondition? {
        var tally = WhereSizeTally()
        return try parseObject(json, depth: 0, having: true, tally: &tally)
    }

    /// Reads a `having` from its text: JSON, or, when that fails, the Python `str(dict)` the Python clients send
    /// (single quotes, `True`, `False`, `None`; see ``PythonLiteral``).
    ///
    /// - Throws: ``QueryParseError`` with code 102 (with the JSON error's offset when neither form parses),
    ///   or 117.
    package static func parseHaving(text: String) throws(QueryParseError) -> QueryCondition? {
        let json: JSONValue
        do throws(JSONParseError) {
            json = try JSONParser.parse(text)
        } catch {
            guard let converted = PythonLiteral.jsonText(fromRepr: text),
                let value = try? JSONParser.parse(converted)
            else { throw .invalidQuery("having is not valid JSON: \(error.message)", offset: error.offset) }
            json = value
        }
        return try parseHaving(json)
    }

    /// Parses JSON text for a query parameter, mapping failures to code 102.
    package static func parseJSON(_ text: String, parameter: String) throws(QueryParseError) -> JSONValue {
        do throws(JSONParseError) {
            return try JSONParser.parse(text)
        } catch {
            throw .invalidQuery("\(parameter) is not valid JSON: \(error.message)", offset: error.offset)
        }
    }

    // MARK: - Objects

    private static func parseObject(
        _ json: JSONValue, depth: Int, having: Bool, tally: inout WhereSizeTally
    ) throws(QueryParseError) -> QueryCondition? {
        guard depth <= maximumDepth else {
            throw .invalidQuery("where nests more than \(maximumDepth) levels of $and, $or and sub-queries")
        }
        guard case .object(let members) = json else {
            throw .invalidQuery(having ? "having must be a JSON object" : "where must be a JSON object")
        }
        var conditions: [QueryCondition] = []
        for key in members.keys.sorted() {
            let value = members[key]!
            switch key {
            case "$or", "$and":
                guard case .array(let elements) = value else {
                    throw .invalidQuery("\(key) expects an array of where objects")
                }
                // Refused before the branches are read: each holds at least one condition or counts as one.
                guard elements.count <= maximumConditions else {
                    throw .whereTooLarge(
                        "\(key) has \(elements.count) branches, more than the \(maximumConditions) conditions a "
                            + "where may hold; use $in for many values of one field, or split the query")
                }
                var children: [QueryCondition] = []
                children.reserveCapacity(elements.count)
                for element in elements {
                    guard case .object = element else {
                        throw .invalidQuery("\(key) expects an array of where objects")
                    }
                    if element.objectValue?.isEmpty == true { try tally.addConditions(1) }
                    children.append(
                        try parseObject(element, depth: depth + 1, having: having, tally: &tally) ?? .and([]))
                }
                conditions.append(key == "$or" ? .or(children) : .and(children))
            case "$relatedTo":
                try tally.addConditions(1)
                conditions.append(try parseRelatedTo(value, fieldKey: nil))
            default:
                guard !key.hasPrefix("$") else {
                    throw .invalidQuery("unknown operator \(QueryParseError.quoted(key)) at the top level of where")
                }
                conditions.append(try parseField(key, value, depth: depth, having: having, tally: &tally))
            }
        }
        switch conditions.count {
        case 0: return nil
        case 1: return conditions[0]
        default: return .and(conditions)
        }
    }

    private static func parseField(
        _ path: String, _ value: JSONValue, depth: Int, having: Bool, tally: inout WhereSizeTally
    ) throws(QueryParseError) -> QueryCondition {
        let validPath = having ? QueryPath.isValidResultPath(path) : QueryPath.isValidFieldPath(path)
        guard validPath else { throw .invalidQuery("invalid field path \(QueryParseError.quoted(path))") }
        guard case .object(let operators) = value, operators.keys.contains(where: { $0.hasPrefix("$") }) else {
            try tally.addConditions(1)
            try checkValue(value, path: path)
            return .field(path: path, constraints: [.equalTo(value)])
        }
        let field = QueryParseError.quoted(path)
        guard operators.keys.allSatisfy({ $0.hasPrefix("$") }) else {
            throw .invalidQuery("the value of \(field) mixes $ operators with plain keys")
        }
        if let related = operators["$relatedTo"] {
            guard operators.count == 1 else {
                throw .invalidQuery("$relatedTo under \(field) cannot be combined with other operators")
            }
            try tally.addConditions(1)
            return try parseRelatedTo(related, fieldKey: path)
        }
        // Companion operators ($options, $maxDistance…) are read with the operator they qualify.
        try tally.addConditions(operators.keys.count(where: { !companionOperators.contains($0) }))
        var constraints: [FieldConstraint] = []
        for name in operators.keys.sorted() {
            let operand = operators[name]!
            switch name {
            case "$eq":
                try checkValue(operand, path: path)
                constraints.append(.equalTo(operand))
            case "$ne":
                try checkValue(operand, path: path)
                constraints.append(.notEqualTo(operand))
            case "$lt", "$lte", "$gt", "$gte":
                try checkComparable(operand, operator: name, field: field)
                switch name {
                case "$lt": constraints.append(.lessThan(operand))
                case "$lte": constraints.append(.lessThanOrEqualTo(operand))
                case "$gt": constraints.append(.greaterThan(operand))
                default: constraints.append(.greaterThanOrEqualTo(operand))
                }
            case "$in", "$nin", "$all":
                guard case .array(let elements) = operand else {
                    throw .invalidQuery("\(name) on \(field) expects an array")
                }
                // Each element becomes a bound SQL parameter; SQLite allows 32766 per statement.
                guard elements.count <= Self.maximumListLength else {
                    throw .invalidQuery("\(name) on \(field) lists more than \(Self.maximumListLength) values")
                }
                try tally.addValues(elements.count)
                // Each `$all` value is a test of its own, ANDed with the others.
                if name == "$all" { try tally.addConditions(max(0, elements.count - 1)) }
                try checkValue(operand, path: path)
                switch name {
                case "$in": constraints.append(.containedIn(elements))
                case "$nin": constraints.append(.notContainedIn(elements))
                default: constraints.append(.containsAll(elements))
                }
            case "$exists":
                guard case .bool(let exists) = operand else {
                    throw .invalidQuery("$exists on \(field) expects true or false")
                }
                constraints.append(.exists(exists))
            case "$regex":
                constraints.append(try parseRegex(operand, options: operators["$options"], field: field))
            case "$options":
                guard operators["$regex"] != nil else {
                    throw .invalidQuery("$options on \(field) needs a $regex")
                }
            case "$select", "$dontSelect":
                let (key, query) = try parseSelect(
                    operand, operator: name, field: field, depth: depth, tally: &tally)
                constraints.append(
                    name == "$select"
                        ? .matchesKeyInQuery(key: key, query: query) : .doesNotMatchKeyInQuery(key: key, query: query))
            case "$inQuery", "$notInQuery":
                let query = try parseSubQuery(operand, operator: name, field: field, depth: depth, tally: &tally)
                constraints.append(name == "$inQuery" ? .matchesQuery(query) : .doesNotMatchQuery(query))
            case "$nearSphere":
                let point = try geoPoint(operand, what: "$nearSphere on \(field)")
                constraints.append(.nearSphere(point, maxDistanceRadians: try maxDistance(operators, field: field)))
            case "$maxDistance", "$maxDistanceInRadians", "$maxDistanceInKilometers", "$maxDistanceInMiles":
                guard operators["$nearSphere"] != nil else {
                    throw .invalidQuery("\(name) on \(field) needs a $nearSphere")
                }
            case "$within":
                constraints.append(try parseWithin(operand, field: field))
            default:
                throw .invalidQuery("unknown operator \(QueryParseError.quoted(name)) on \(field)")
            }
        }
        return .field(path: path, constraints: constraints)
    }

    // MARK: - Operands

    /// Checks GeoPoints in a value (itself or the elements of an array): well formed and in range.
    private static func checkValue(_ value: JSONValue, path: String) throws(QueryParseError) {
        switch value {
        case .object(let members) where members["__type"] == .string("GeoPoint"):
            _ = try geoPoint(value, what: "the GeoPoint for \(QueryParseError.quoted(path))")
        case .array(let elements):
            for element in elements where element["__type"] == .string("GeoPoint") {
                _ = try geoPoint(element, what: "the GeoPoint for \(QueryParseError.quoted(path))")
            }
        default:
            break
        }
    }

    private static func checkComparable(
        _ operand: JSONValue, operator name: String, field: String
    ) throws(QueryParseError) {
        switch operand {
        case .int, .double, .string, .bool:
            return
        case .object(let members) where members["__type"]?.stringValue != nil:
            return
        default:
            throw .invalidQuery("\(name) on \(field) expects a number, string, boolean or date")
        }
    }

    private static func parseRegex(
        _ operand: JSONValue, options: JSONValue?, field: String
    ) throws(QueryParseError) -> FieldConstraint {
        guard case .string(let pattern) = operand else { throw .invalidQuery("$regex on \(field) expects a string") }
        var optionLetters = ""
        if let options {
            guard case .string(let letters) = options, letters.allSatisfy({ "imsx".contains($0) }) else {
                throw .invalidQuery("$options on \(field) expects a string of the letters i, m, s and x")
            }
            optionLetters = letters
        }
        // The pattern itself is checked where it runs (the store compiles it with the server's bounded regex
        // engine, which this shared module does not carry): a pattern the engine rejects is 102 there.
        return .matchesRegex(pattern: pattern, options: optionLetters)
    }

    private static func parseSelect(
        _ operand: JSONValue, operator name: String, field: String, depth: Int, tally: inout WhereSizeTally
    ) throws(QueryParseError) -> (key: String, query: SubQuery) {
        let shape = "{\"query\":{\"className\":…,\"where\":{…}},\"key\":…}"
        guard case .object(let members) = operand, let query = members["query"], let key = members["key"] else {
            throw .invalidQuery("\(name) on \(field) expects \(shape)")
        }
        if let extra = members.keys.sorted().first(where: { $0 != "query" && $0 != "key" }) {
            throw .invalidQuery("\(name) on \(field) has an unexpected key \(QueryParseError.quoted(extra))")
        }
        guard case .string(let keyPath) = key, QueryPath.isValidFieldPath(keyPath) else {
            throw .invalidQuery("the key of \(name) on \(field) must be a field path")
        }
        return (keyPath, try parseSubQuery(query, operator: name, field: field, depth: depth, tally: &tally))
    }

    private static func parseSubQuery(
        _ operand: JSONValue, operator name: String, field: String, depth: Int, tally: inout WhereSizeTally
    ) throws(QueryParseError) -> SubQuery {
        guard case .object(let members) = operand, let classValue = members["className"] else {
            throw .invalidQuery("\(name) on \(field) expects a query {\"className\":…,\"where\":{…}}")
        }
        try tally.enterSubQuery()
        defer { tally.leaveSubQuery() }
        guard case .string(let className) = classValue, BmobName.isValidClassName(className) else {
            throw .invalidQuery("the className in \(name) on \(field) is not a valid class name")
        }
        if let extra = members.keys.sorted().first(where: {
            $0 != "className" && $0 != "where" && !ignoredSubQueryKeys.contains($0)
        }) {
            throw .invalidQuery(
                "the query in \(name) on \(field) has an unexpected key \(QueryParseError.quoted(extra))")
        }
        var condition: QueryCondition?
        switch members["where"] {
        case nil, .null?:
            guard depth < maximumDepth else {
                throw .invalidQuery("where nests more than \(maximumDepth) levels of $and, $or and sub-queries")
            }
        case .object?:
            condition = try parseObject(members["where"]!, depth: depth + 1, having: false, tally: &tally)
        default:
            throw .invalidQuery("the where in \(name) on \(field) must be an object")
        }
        return SubQuery(className: className, condition: condition)
    }

    private static func maxDistance(_ operators: [String: JSONValue], field: String) throws(QueryParseError) -> Double?
    {
        let divisors: [(String, Double)] = [
            ("$maxDistance", 1), ("$maxDistanceInKilometers", earthRadiusKilometers),
            ("$maxDistanceInMiles", earthRadiusMiles), ("$maxDistanceInRadians", 1),
        ]
        var result: Double?
        for (name, divisor) in divisors {
            guard let value = operators[name] else { continue }
            guard result == nil else { throw .invalidQuery("$nearSphere on \(field) has more than one $maxDistance") }
            guard let distance = value.doubleValue, distance.isFinite, distance >= 0 else {
                throw .invalidQuery("\(name) on \(field) expects a non-negative number")
            }
            result = distance / divisor
        }
        return result
    }

    private static func parseWithin(_ operand: JSONValue, field: String) throws(QueryParseError) -> FieldConstraint {
        guard case .object(let members) = operand, members.count == 1, case .array(let corners)? = members["$box"],
            corners.count == 2
        else { throw .invalidQuery("$within on \(field) expects {\"$box\":[southwest, northeast]}") }
        let southwest = try geoPoint(corners[0], what: "the $box southwest corner on \(field)")
        let northeast = try geoPoint(corners[1], what: "the $box northeast corner on \(field)")
        guard southwest.latitude <= northeast.latitude else {
            throw .invalidQuery("the $box on \(field) has its southwest corner north of its northeast corner")
        }
        return .withinBox(southwest: southwest, northeast: northeast)
    }

    /// A well-formed GeoPoint in range; 102 when malformed, 117 when out of range.
    private static func geoPoint(_ json: JSONValue, what: String) throws(QueryParseError) -> GeoPointValue {
        guard let point = GeoPointValue(json: json) else { throw .invalidQuery("\(what) must be a GeoPoint") }
        guard point.isValid else {
            throw QueryParseError(
                code: .invalidGeoPoint,
                message: "\(what) is out of range (latitude −90…90, longitude −180…180)")
        }
        return point
    }

    private static func parseRelatedTo(_ operand: JSONValue, fieldKey: String?) throws(QueryParseError)
        -> QueryCondition
    {
        let shape = "$relatedTo expects {\"object\":Pointer,\"key\":…}"
        guard case .object(let members) = operand, let object = members["object"] else { throw .invalidQuery(shape) }
        if let extra = members.keys.sorted().first(where: { $0 != "object" && $0 != "key" }) {
            throw .invalidQuery("$relatedTo has an unexpected key \(QueryParseError.quoted(extra))")
        }
        guard let pointer = PointerValue(json: object), BmobName.isValidClassName(pointer.className),
            !pointer.objectId.isEmpty, pointer.objectId.utf8.count <= BmobName.maximumLength
        else { throw .invalidQuery("the object of $relatedTo must be a Pointer to a valid class") }
        let key: String
        switch members["key"] {
        case .string(let name)?: key = name
        case nil:
            guard let fieldKey else { throw .invalidQuery(shape) }
            key = fieldKey
        default: throw .invalidQuery(shape)
        }
        guard BmobName.isValidFieldName(key) else {
            throw .invalidQuery("the key of $relatedTo must be a field name")
        }
        return .relatedTo(object: pointer, key: key)
    }
}
