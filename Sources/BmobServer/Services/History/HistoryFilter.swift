package import BmobStore
package import BmobWire

/// The filters and paging of a history read, from a client's JSON: REST's `where` (with `limit` and `skip` from
/// the query string), or the native call's `data`. `since`/`until` are Bmob dates (`{"__type":"Date","iso":…}` or
/// the `iso` text), `user` a user's objectId, `op` one of `create`, `update`, `delete`.
package struct HistoryFilter: Sendable, Equatable {
    package var since: Int64?
    package var until: Int64?
    package var user: String?
    package var operation: JournalOperation?
    package var skip: Int = 0
    package var limit: Int = HistoryFilter.defaultLimit

    /// Changes answered when the client names no limit.
    package static let defaultLimit = 100
    /// The most changes one read answers (as Bmob's queries).
    package static let maximumLimit = 1000
    /// The largest `skip`: deeper pages cost the database a walk over everything skipped.
    package static let maximumSkip = 100_000

    /// No filter, the default page.
    package init() {}

    /// Reads the members of `json` (an object, or `null` for none).
    ///
    /// - Throws: ``BmobAPIError`` 102 for a member of the wrong type or out of range, naming it.
    package init(json: JSONValue?) throws(BmobAPIError) {
        guard let json, !json.isNull else { return }
        guard case .object(let members) = json else { throw Self.invalid("the history filter must be a JSON object") }
        for (key, value) in members {
            switch key {
            case "since": since = try Self.date(value, key)
            case "until": until = try Self.date(value, key)
            case "user":
                guard case .string(let id) = value, !id.isEmpty, id.utf8.count <= 64 else {
                    throw Self.invalid("user must be a user's objectId")
                }
                user = id
            case "op":
                guard case .string(let name) = value, let kind = JournalQuery.objectOperations.first(where: { $0.rawValue == name })
                else { throw Self.invalid("op must be one of create, update, delete") }
                operation = kind
            case "limit": limit = try Self.count(value, key, maximum: Self.maximumLimit)
            case "skip": skip = try Self.count(value, key, maximum: Self.maximumSkip)
            default:
                throw Self.invalid("unknown history filter '\(String(key.prefix(64)))' (expected since, until, user, op, limit, skip)")
            }
        }
    }

    /// The store's query for `className` (and `objectId`) with these filters.
    package func query(className: String, objectId: String?) -> JournalQuery {
        JournalQuery(
            className: className, objectId: objectId, since: since, until: until, caller: user, operation: operation,
            skip: skip, limit: limit)
    }

    private static func date(_ value: JSONValue, _ key: String) throws(BmobAPIError) -> Int64 {
        let text: String?
        switch value {
        case .string(let string): text = string
        case .object(let members) where members["__type"]?.stringValue == "Date": text = members["iso"]?.stringValue
        default: text = nil
        }
        guard let text, let milliseconds = BmobDateFormat.parse(text) else {
            throw invalid("\(key) must be a Bmob date (\"yyyy-MM-dd HH:mm:ss\" or {\"__type\":\"Date\",\"iso\":…})")
        }
        return milliseconds
    }

    private static func count(_ value: JSONValue, _ key: String, maximum: Int) throws(BmobAPIError) -> Int {
        let number: Int64?
        switch value {
        case .int(let int): number = int
        case .double(let double) where double == double.rounded() && abs(double) < 1e15: number = Int64(double)
        case .string(let text): number = Int64(text)
        default: number = nil
        }
        guard let number, number >= 0, number <= Int64(maximum) else {
            throw invalid("\(key) must be a whole number from 0 to \(maximum)")
        }
        return Int(number)
    }

    private static func invalid(_ message: String) -> BmobAPIError {
        BmobAPIError(.invalidQuery, message)
    }
}
