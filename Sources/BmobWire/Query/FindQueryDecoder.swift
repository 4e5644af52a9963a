/// Reads a find request into a ``FindQuery``: the REST query string of `GET /1/classes/<C>` (and `/1/users`),
/// or the `data` object of a native `find`.
///
/// REST parameters (already form-decoded, see ``QueryString/parse(_:)``); the last of a repeated name wins and
/// unknown names are ignored:
/// - `where`: JSON (``WhereParser``); empty means no condition;
/// - `order`: comma list, `-` for descending (`+` or nothing for ascending), spaces trimmed; `score desc` is
///   read too; keys may name aggregate results (`-_sumScore`);
/// - `limit`: default 100, clamped to 1000; negative or not an integer → 102. `0` is kept (with `count` it asks
///   for the count only);
/// - `skip`: a non-negative integer;
/// - `keys`, `include`: comma lists (empty means none given);
/// - `count`: `1` or `true` (`0` or `false` for off);
/// - `groupby`, `sum`, `average`, `max`, `min`: comma lists, spaces after commas trimmed; `groupcount`: `true`;
/// - `having`: JSON, or a Python `str(dict)` (``WhereParser/parseHaving(text:)``).
///
/// Lists are bounded (102 beyond): ``FindQuery/maximumOrderKeys`` order keys, ``FindQuery/maximumKeys`` keys,
/// ``FindQuery/maximumIncludes`` include paths, ``FindQuery/maximumAggregateFields`` fields in each statistics
/// list; `where` and `having` have ``WhereParser``'s limits.
///
/// The native form takes the same names with JSON values: `where` and `having` as objects (or JSON text),
/// numbers for `limit` and `skip`, `true` for `count` and `groupcount`, and comma strings or string arrays for
/// the lists.
package enum FindQueryDecoder {
    /// Decodes REST query parameters.
    ///
    /// - Parameters:
    ///   - className: The class from the path; it must satisfy ``BmobName/isValidClassName(_:)``.
    ///   - parameters: Form-decoded name–value pairs.
    /// - Returns: The query, with ``FindQuery/aggregation`` set when any statistics parameter is present.
    /// - Throws: ``QueryParseError``: 103 for a bad class name, 102 for a bad parameter, 117 for a GeoPoint out
    ///   of range.
    package static func decode(
        className: String, parameters: [(name: String, value: String)]
    ) throws(QueryParseError) -> FindQuery {
        var values: [String: String] = [:]
        for (name, value) in parameters { values[name] = value }
        var query = try start(className)
        if let text = values["where"], !text.trimmingSpaces().isEmpty {
            query.condition = try WhereParser.parse(text: text)
        }
        if let text = values["order"] { query.order = try order(list(text)) }
        if let text = values["limit"], !text.trimmingSpaces().isEmpty {
            query.limit = try limit(integer(text, parameter: "limit"))
        }
        if let text = values["skip"], !text.trimmingSpaces().isEmpty {
            query.skip = try skip(integer(text, parameter: "skip"))
        }
        if let text = values["keys"] {
            let keys = list(text)
            query.keys = keys.isEmpty ? nil : try self.keys(keys)
        }
        if let text = values["include"] { query.include = try include(list(text)) }
        if let text = values["count"] { query.count = try flag(text, parameter: "count") }
        var aggregation = Aggregation()
        var aggregated = false
        if let text = values["groupby"] {
            aggregation.groupBy = try aggregateFields(list(text), parameter: "groupby")
            aggregated = true
        }
        if let text = values["groupcount"] {
            aggregation.groupCount = try flag(text, parameter: "groupcount")
            aggregated = true
        }
        for name in ["sum", "average", "max", "min"] {
            guard let text = values[name] else { continue }
            setFunction(name, try aggregateFields(list(text), parameter: name), in: &aggregation)
            aggregated = true
        }
        if let text = values["having"], !text.trimmingSpaces().isEmpty {
            aggregation.having = try WhereParser.parseHaving(text: text)
            aggregated = true
        }
        if aggregated { query.aggregation = aggregation }
        return query
    }

    /// Decodes the `data` object of a native `find` (`{"where":{…},"limit":n,"skip":n,"order":"-a,b",
    /// "keys":"a,b","include":"p","count":true,"groupby":…}`).
    ///
    /// - Parameters:
    ///   - className: The class (`c` in the envelope).
    ///   - json: The `data` object; `null` reads as `{}`.
    /// - Throws: ``QueryParseError``: 103 for a bad class name, 102 for a bad member, 117 for a GeoPoint out of
    ///   range.
    package static func decode(className: String, json: JSONValue) throws(QueryParseError) -> FindQuery {
        var query = try start(className)
        let members: [String: JSONValue]
        switch json {
        case .object(let object): members = object
        case .null: members = [:]
        default: throw .invalidQuery("the find data must be a JSON object")
        }
        switch members["where"] {
        case nil, .null?: break
        case .string(let text)?:
            if !text.trimmingSpaces().isEmpty { query.condition = try WhereParser.parse(text: text) }
        case let value?: query.condition = try WhereParser.parse(value)
        }
        if let value = members["order"], !value.isNull { query.order = try order(list(value, parameter: "order")) }
        if let value = members["limit"], !value.isNull { query.limit = try limit(integer(value, parameter: "limit")) }
        if let value = members["skip"], !value.isNull { query.skip = try skip(integer(value, parameter: "skip")) }
        if let value = members["keys"], !value.isNull {
            let keys = try list(value, parameter: "keys")
            query.keys = keys.isEmpty ? nil : try self.keys(keys)
        }
        if let value = members["include"], !value.isNull {
            query.include = try include(list(value, parameter: "include"))
        }
        if let value = members["count"], !value.isNull { query.count = try flag(value, parameter: "count") }
        var aggregation = Aggregation()
        var aggregated = false
        if let value = members["groupby"], !value.isNull {
            aggregation.groupBy = try aggregateFields(list(value, parameter: "groupby"), parameter: "groupby")
            aggregated = true
        }
        if let value = members["groupcount"], !value.isNull {
            aggregation.groupCount = try flag(value, parameter: "groupcount")
            aggregated = true
        }
        for name in ["sum", "average", "max", "min"] {
            guard let value = members[name], !value.isNull else { continue }
            setFunction(name, try aggregateFields(list(value, parameter: name), parameter: name), in: &aggregation)
            aggregated = true
        }
        switch members["having"] {
        case nil, .null?: break
        case .string(let text)?:
            if !text.trimmingSpaces().isEmpty {
                aggregation.having = try WhereParser.parseHaving(text: text)
                aggregated = true
            }
        case let value?:
            aggregation.having = try WhereParser.parseHaving(value)
            aggregated = true
        }
        if aggregated { query.aggregation = aggregation }
        return query
    }

    // MARK: - Pieces shared by both forms

    private static func start(_ className: String) throws(QueryParseError) -> FindQuery {
        guard BmobName.isValidClassName(className) else {
            throw QueryParseError(
                code: .invalidClassName, message: "invalid class name \(QueryParseError.quoted(className))")
        }
        return FindQuery(className: className)
    }

    /// The non-empty, trimmed items of a comma list.
    package static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    private static func list(_ value: JSONValue, parameter: String) throws(QueryParseError) -> [String] {
        switch value {
        case .string(let text):
            return list(text)
        case .array(let elements):
            var items: [String] = []
            for element in elements {
                guard case .string(let text) = element else {
                    throw .invalidQuery("\(parameter) must be a comma-separated string or an array of strings")
                }
                items += list(text)
            }
            return items
        default:
            throw .invalidQuery("\(parameter) must be a comma-separated string or an array of strings")
        }
    }

    /// Order keys: `-a` descending, `+a` or `a` ascending, `a desc` / `a asc` as the Swift SDK writes them.
    private static func order(_ items: [String]) throws(QueryParseError) -> [OrderKey] {
        try checkCount(items, FindQuery.maximumOrderKeys, parameter: "order")
        var keys: [OrderKey] = []
        for item in items {
            var path = Substring(item)
            var descending = false
            let words = item.split(separator: " ", omittingEmptySubsequences: true)
            if words.count == 2, ["asc", "desc"].contains(words[1].lowercased()) {
                path = words[0]
                descending = words[1].lowercased() == "desc"
            }
            if path.first == "-" {
                descending = true
                path = path.dropFirst()
            } else if path.first == "+" {
                path = path.dropFirst()
            }
            guard QueryPath.isValidResultPath(path) else {
                throw .invalidQuery("order has an invalid key \(QueryParseError.quoted(item))")
            }
            keys.append(OrderKey(path: String(path), descending: descending))
        }
        return keys
    }

    private static func integer(_ text: String, parameter: String) throws(QueryParseError) -> Int {
        let trimmed = text.trimmingSpaces()
        if let value = Int(trimmed) { return value }
        let digits = trimmed.first == "+" ? trimmed.dropFirst() : Substring(trimmed)
        if !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Int.max
        }
        throw .invalidQuery("\(parameter) must be an integer")
    }

    private static func integer(_ value: JSONValue, parameter: String) throws(QueryParseError) -> Int {
        switch value {
        case .int(let number): return Int(number)
        case .double(let number):
            guard let exact = Int64(exactly: number) else {
                guard number.isFinite, number > 0, number == number.rounded() else {
                    throw .invalidQuery("\(parameter) must be an integer")
                }
                return Int.max
            }
            return Int(exact)
        case .string(let text): return try integer(text, parameter: parameter)
        default: throw .invalidQuery("\(parameter) must be an integer")
        }
    }

    private static func limit(_ value: Int) throws(QueryParseError) -> Int {
        guard value >= 0 else { throw .invalidQuery("limit must not be negative") }
        return min(value, FindQuery.maximumLimit)
    }

    private static func skip(_ value: Int) throws(QueryParseError) -> Int {
        guard value >= 0 else { throw .invalidQuery("skip must not be negative") }
        return value
    }

    private static func keys(_ items: [String]) throws(QueryParseError) -> [String] {
        try checkCount(items, FindQuery.maximumKeys, parameter: "keys")
        return try fields(items, parameter: "keys")
    }

    /// The fields of `groupby`, `sum`, `average`, `max` or `min`.
    private static func aggregateFields(_ items: [String], parameter: String) throws(QueryParseError) -> [String] {
        try checkCount(items, FindQuery.maximumAggregateFields, parameter: parameter)
        return try fields(items, parameter: parameter)
    }

    /// Refuses a list longer than `maximum` (102), before its items are checked one by one.
    private static func checkCount(_ items: [String], _ maximum: Int, parameter: String) throws(QueryParseError) {
        guard items.count <= maximum else {
            throw .invalidQuery("\(parameter) lists \(items.count) items, more than the \(maximum) allowed")
        }
    }

    private static func fields(_ items: [String], parameter: String) throws(QueryParseError) -> [String] {
        for item in items where !QueryPath.isValidFieldPath(item) {
            throw .invalidQuery("\(parameter) has an invalid field \(QueryParseError.quoted(item))")
        }
        return items
    }

    private static func include(_ items: [String]) throws(QueryParseError) -> [String] {
        try checkCount(items, FindQuery.maximumIncludes, parameter: "include")
        for item in items where !QueryPath.isValidInclude(item) {
            throw .invalidQuery("include has an invalid path \(QueryParseError.quoted(item))")
        }
        return items
    }

    private static func flag(_ text: String, parameter: String) throws(QueryParseError) -> Bool {
        switch text.trimmingSpaces().lowercased() {
        case "1", "true": return true
        case "0", "false", "": return false
        default: throw .invalidQuery("\(parameter) must be 1, true, 0 or false")
        }
    }

    private static func flag(_ value: JSONValue, parameter: String) throws(QueryParseError) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .int(let number) where number == 0 || number == 1: return number == 1
        case .string(let text): return try flag(text, parameter: parameter)
        default: throw .invalidQuery("\(parameter) must be true or false")
        }
    }

    private static func setFunction(_ name: String, _ fields: [String], in aggregation: inout Aggregation) {
        switch name {
        case "sum": aggregation.sum = fields
        case "average": aggregation.average = fields
        case "max": aggregation.max = fields
        default: aggregation.min = fields
        }
    }
}
