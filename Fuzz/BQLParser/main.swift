import BmobWire
import BmobServerCodecs

/// libFuzzer entry point for ``BQLParser``.
///
/// The input is the statement, then optionally a NUL byte and the JSON array of placeholder values (anything
/// else after the NUL gives no values). Checked with preconditions:
/// - a rejection carries code 601, a message, and an offset within the statement;
/// - parsing is deterministic;
/// - an accepted statement has a valid class, a limit within 0…1000, a non-negative skip, valid keys and order
///   paths, lists within ``FindQuery``'s limits, `countRequested` equal to the query's `count`, and a `where`
///   and `having` that ``WhereParser`` accepts once encoded, meaning the same after the round trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? size
    let bql = String(decoding: bytes[..<split], as: UTF8.self)
    var values: [JSONValue] = []
    if split < size, case .array(let list)? = try? JSONParser.parse(bytes[(split + 1)...]) {
        values = list
    }
    let statement: BQLStatement
    do throws(QueryParseError) {
        statement = try BQLParser.parse(bql, values: values, nowMilliseconds: 1_437_531_770_000)
    } catch {
        precondition(error.code == .invalidBQL, "BQL error without code 601")
        precondition(!error.message.isEmpty, "empty message")
        guard let offset = error.offset else { preconditionFailure("BQL error without an offset") }
        precondition(offset >= 0 && offset <= bql.utf8.count, "offset outside the statement")
        return 0
    }
    let again = try? BQLParser.parse(bql, values: values, nowMilliseconds: 1_437_531_770_000)
    precondition(again == statement, "parsing is not deterministic")
    let query = statement.query
    precondition(BmobName.isValidClassName(query.className), "invalid class accepted")
    precondition((0...FindQuery.maximumLimit).contains(query.limit) && query.skip >= 0, "paging out of range")
    precondition(statement.countRequested == query.count, "count flags disagree")
    precondition(query.keys?.allSatisfy { QueryPath.isValidFieldPath($0) } ?? true, "invalid key accepted")
    precondition(query.order.allSatisfy { QueryPath.isValidResultPath($0.path) }, "invalid order accepted")
    precondition(query.include.allSatisfy { QueryPath.isValidInclude($0) }, "invalid include accepted")
    precondition(query.listOverItsLimit == nil, "a list over its limit accepted")
    if let condition = query.condition {
        do throws(QueryParseError) {
            let reparsed = try WhereParser.parse(WhereEncoder.encode(condition))
            precondition(normalized(reparsed) == normalized(condition), "where changed in a round trip")
        } catch {
            preconditionFailure("BQL where rejected by WhereParser: \(error)")
        }
    }
    if let having = query.aggregation?.having {
        do throws(QueryParseError) {
            let reparsed = try WhereParser.parseHaving(WhereEncoder.encode(having))
            precondition(normalized(reparsed) == normalized(having), "having changed in a round trip")
        } catch {
            preconditionFailure("BQL having rejected by WhereParser: \(error)")
        }
    }
    return 0
}

private func normalized(_ condition: QueryCondition?) -> QueryCondition? {
    QueryCondition.normalized(condition)
}
