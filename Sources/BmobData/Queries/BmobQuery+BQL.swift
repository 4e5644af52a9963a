package import BmobCore
import BmobWire
import Foundation

extension BmobQuery {
    /// The longest BQL statement Bmob accepts, in UTF-8 bytes; longer ones are refused before they are sent.
    static let maximumBQLLength = 4_096

    /// Runs a BQL `select` (Bmob Query Language) through the native protocol's `cloud_query`, as the caller
    /// (with the current user's session): `?` placeholders take `values` in order (numbers, strings, booleans,
    /// dates, ``BmobGeoPoint``s, pointers…), so user input never has to be spliced into the text.
    ///
    /// ```swift
    /// let top = try await BmobQuery.find(bql: "select * from GameScore where score > ? order by -score limit ?", values: [50, 10])
    /// let counted = try await BmobQuery.find(bql: "select count(*) from GameScore where playerName = ?", values: ["Ann"])
    /// print(counted.count ?? 0)
    /// ```
    ///
    /// - Throws: ``BmobError`` — code 601 for a statement the server cannot parse, ``BmobError/invalidParameter(reason:)``
    ///   for an empty or oversized statement or a value that cannot be sent, and the errors of ``find()``.
    public static func find(bql: String, values: [Any] = []) async throws -> BmobBQLResult {
        try await find(bql: bql, values: values, client: .shared)
    }

    /// Runs a BQL statistics statement (`sum`, `average`, `max`, `min`, `count(*)` with `group by` / `having`):
    /// one dictionary per group, with the group-by fields and `_sumScore`, `_avgScore`, `_maxScore`, `_minScore`,
    /// `_count` as ``statistics()->[[String:Any]]`` answers them.
    ///
    /// ```swift
    /// let perPlayer = try await BmobQuery.statistics(bql: "select sum(score), count(*) from GameScore group by playerName")
    /// ```
    ///
    /// - Throws: as ``find(bql:values:)``.
    public static func statistics(bql: String, values: [Any] = []) async throws -> [[String: Any]] {
        let answer = try await run(bql: bql, values: values, client: .shared)
        guard let results = (answer["results"] ?? answer).arrayValue else { throw BmobError.jsonParsingFailed }
        return results.compactMap { BmobValueDecoding.value($0) as? [String: Any] }
    }

    /// ``find(bql:values:)`` through `client`.
    package static func find(bql: String, values: [Any], client: BmobClient) async throws -> BmobBQLResult {
        let answer = try await run(bql: bql, values: values, client: client)
        let className = answer["c"]?.stringValue ?? Self.className(ofBQL: bql) ?? ""
        guard let rows = (answer["results"] ?? .array([])).arrayValue else { throw BmobError.jsonParsingFailed }
        let objects = rows.compactMap { row in row.objectValue.map { BmobObject(className: className, json: $0) } }
        return BmobBQLResult(className: className, results: objects, count: answer["count"]?.int64Value.map { Int($0) })
    }

    /// Sends the statement and its values to `cloud_query`.
    private static func run(bql: String, values: [Any], client: BmobClient) async throws(BmobError) -> JSONValue {
        let statement = bql.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !statement.isEmpty else { throw .invalidParameter(reason: "the BQL statement is empty") }
        guard statement.utf8.count <= maximumBQLLength else {
            throw .invalidParameter(reason: "the BQL statement is longer than \(maximumBQLLength) bytes")
        }
        var data: [String: JSONValue] = ["bql": .string(statement)]
        if !values.isEmpty { data["values"] = .array(try values.map { value throws(BmobError) in try BmobValueCoding.encode(value) }) }
        return try await client.call("cloud_query", ["data": .object(data)])
    }

    /// The class a `select … from <Class> …` statement names, read the way the server's parser reads it (the
    /// first `from` outside a quoted string, then a name), or `nil`.
    package static func className(ofBQL bql: String) -> String? {
        var inQuote: Character?
        var word = ""
        var sawFrom = false
        for character in bql + " " {
            if let quote = inQuote {
                if character == quote { inQuote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                inQuote = character
                word = ""
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if !word.isEmpty {
                if sawFrom { return word }
                sawFrom = word.lowercased() == "from"
                word = ""
            }
        }
        return nil
    }
}
