/// Reading the members of a sync message's JSON object, each refusal a ``SyncProtocolError`` that names the member.
enum SyncMembers {
    /// The largest id or version accepted: integers JavaScript clients can hold exactly.
    static let maximumCount: Int64 = (1 << 53) - 1

    /// A non-negative integer member no larger than ``maximumCount``.
    static func count(_ name: String, in object: JSONValue) throws(SyncProtocolError) -> Int64 {
        guard let value = object[name]?.int64Value, value >= 0, value <= maximumCount else {
            throw SyncProtocolError(.invalidMember, "\(name) must be a whole number from 0 to 2^53-1")
        }
        return value
    }

    /// An optional non-negative integer member; `nil` when absent or null.
    static func optionalCount(_ name: String, in object: JSONValue) throws(SyncProtocolError) -> Int64? {
        guard let value = object[name], !value.isNull else { return nil }
        return try count(name, in: object)
    }

    /// A string member.
    static func string(_ name: String, in object: JSONValue) throws(SyncProtocolError) -> String {
        guard let value = object[name]?.stringValue else {
            throw SyncProtocolError(.invalidMember, "\(name) must be a string")
        }
        return value
    }

    /// An optional string member; `nil` when absent or null.
    static func optionalString(_ name: String, in object: JSONValue) throws(SyncProtocolError) -> String? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw SyncProtocolError(.invalidMember, "\(name) must be a string") }
        return string
    }

    /// A boolean member.
    static func bool(_ name: String, in object: JSONValue) throws(SyncProtocolError) -> Bool {
        guard let value = object[name]?.boolValue else {
            throw SyncProtocolError(.invalidMember, "\(name) must be true or false")
        }
        return value
    }

    /// A function path member.
    static func path(_ name: String, in object: JSONValue) throws(SyncProtocolError) -> SyncFunctionPath {
        try SyncFunctionPath(validating: try string(name, in: object))
    }

    /// A call's arguments: Convex's one-element array `[{…}]`, or the object itself; absent, `[]` or null mean `{}`.
    /// Whole numbers become integers.
    static func arguments(_ name: String, in object: JSONValue) throws(SyncProtocolError) -> [String: JSONValue] {
        switch object[name] {
        case nil, .null?: return [:]
        case .object(let members)?: return members.mapValues(\.wholeNumbersAsIntegers)
        case .array(let items)?:
            if items.isEmpty { return [:] }
            guard items.count == 1, case .object(let members) = items[0] else {
                throw SyncProtocolError(.invalidMember, "\(name) must be an object or an array holding one object")
            }
            return members.mapValues(\.wholeNumbersAsIntegers)
        default:
            throw SyncProtocolError(.invalidMember, "\(name) must be an object or an array holding one object")
        }
    }

    /// `logLines`: an array of strings, at most `limit`; absent or null mean none.
    static func logLines(in object: JSONValue, limit: Int) throws(SyncProtocolError) -> [String] {
        guard let value = object["logLines"], !value.isNull else { return [] }
        guard let items = value.arrayValue else { throw SyncProtocolError(.invalidMember, "logLines must be an array") }
        guard items.count <= limit else { throw SyncProtocolError(.tooManyItems, "more than \(limit) log lines") }
        var lines: [String] = []
        lines.reserveCapacity(items.count)
        for item in items {
            guard let line = item.stringValue else { throw SyncProtocolError(.invalidMember, "logLines must hold strings") }
            lines.append(line)
        }
        return lines
    }

    /// Parses a message's text within `limits` into a JSON object with a string `type`.
    static func envelope(_ bytes: some Collection<UInt8>, limits: SyncLimits) throws(SyncProtocolError) -> (String, JSONValue) {
        guard bytes.count <= limits.maximumMessageBytes else {
            throw SyncProtocolError(.messageTooLarge, "a message is at most \(limits.maximumMessageBytes) bytes")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw SyncProtocolError(.invalidJSON, "a message is one JSON object: \(error.message)")
        }
        guard json.objectValue != nil, let type = json["type"]?.stringValue else {
            throw SyncProtocolError(.unknownType, "a message is a JSON object with a string type")
        }
        return (type, json)
    }
}
