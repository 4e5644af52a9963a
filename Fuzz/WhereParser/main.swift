import BmobWire

/// libFuzzer entry point for ``WhereParser``, ``WhereEncoder`` and ``FindQueryDecoder``'s native form.
///
/// The input is read as JSON; inputs that are not JSON are left to the JSON parser's own fuzzing. The value is
/// parsed as a `where` and as a `having`, and checked with preconditions:
/// - a rejection carries code 102, 117 or 402 (a `where` over its size limits) and a message;
/// - `nil` comes only from `{}`;
/// - the canonical encoding parses again, to a condition that means the same (equal after ``normalized(_:)``),
///   and encodes to the same JSON (the canonical form is a fixed point), also through its text. The allowed
///   failures are the nesting and size limits, since flattening an `and` may move a part one level down;
/// - the same value as a native find `data` object decodes or fails with 102, 103, 117 or 402, a decoded
///   query keeps its lists within ``FindQuery``'s limits, and it re-encodes and decodes to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let json = try? JSONParser.parse(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    for having in [false, true] {
        let condition: QueryCondition?
        do throws(QueryParseError) {
            condition = having ? try WhereParser.parseHaving(json) : try WhereParser.parse(json)
        } catch {
            precondition(
                error.code == .invalidQuery || error.code == .invalidGeoPoint || error.code == .whereTooLarge,
                "unexpected code")
            precondition(!error.message.isEmpty, "empty message")
            continue
        }
        guard let condition else {
            precondition(json == .object([:]), "nil condition for a non-empty where")
            continue
        }
        checkRoundTrip(condition, having: having)
    }
    checkFindData(json)
    return 0
}

private func parse(_ json: JSONValue, having: Bool) throws(QueryParseError) -> QueryCondition? {
    having ? try WhereParser.parseHaving(json) : try WhereParser.parse(json)
}

private func checkRoundTrip(_ condition: QueryCondition, having: Bool) {
    let encoded = WhereEncoder.encode(condition)
    let reparsed: QueryCondition?
    do throws(QueryParseError) {
        reparsed = try parse(encoded, having: having)
    } catch {
        precondition(isLimit(error), "canonical where rejected: \(error)")
        return
    }
    precondition(normalized(reparsed) == normalized(condition), "round trip changed the meaning")
    let again = reparsed.map(WhereEncoder.encode) ?? .object([:])
    precondition(again == encoded, "canonical encoding is not a fixed point")
    let text = encoded.jsonString
    guard let fromText = try? JSONParser.parse(text) else { preconditionFailure("encoded where is not JSON") }
    do throws(QueryParseError) {
        let textual = try parse(fromText, having: having)
        precondition((textual.map(WhereEncoder.encode) ?? .object([:])).jsonString == text, "text round trip")
    } catch {
        preconditionFailure("canonical where text rejected: \(error)")
    }
}

private func checkFindData(_ json: JSONValue) {
    let query: FindQuery
    do throws(QueryParseError) {
        query = try FindQueryDecoder.decode(className: "GameScore", json: json)
    } catch {
        precondition([102, 103, 117, 402].contains(error.code.rawValue), "unexpected find code")
        return
    }
    precondition((0...FindQuery.maximumLimit).contains(query.limit) && query.skip >= 0, "paging out of range")
    precondition(query.listOverItsLimit == nil, "a list over its limit accepted")
    do throws(QueryParseError) {
        let again = try FindQueryDecoder.decode(className: "GameScore", json: FindQueryEncoder.json(query))
        precondition(normalized(again.condition) == normalized(query.condition), "find where changed")
        precondition(
            normalized(again.aggregation?.having) == normalized(query.aggregation?.having), "find having changed")
        var left = again
        var right = query
        left.condition = nil
        right.condition = nil
        left.aggregation?.having = nil
        right.aggregation?.having = nil
        precondition(left == right, "find query changed in a round trip")
    } catch {
        precondition(isLimit(error), "encoded find query rejected: \(error)")
    }
}

/// Whether `error` is a nesting or size limit, which a re-encoded query may reach where the original did not.
private func isLimit(_ error: QueryParseError) -> Bool {
    error.code == .whereTooLarge || error.message.hasPrefix("where nests")
}

private func normalized(_ condition: QueryCondition?) -> QueryCondition? {
    QueryCondition.normalized(condition)
}
