import BmobWire

/// A value from a query, classified by how the store compares it.
///
/// The object service stores Dates as `{"__type":"Date","iso":"YYYY-MM-DD HH:MM:SS"}` in UTC, Pointers as
/// `{"__type":"Pointer","className","objectId"}` and other objects in BmobWire's sorted-key encoding; a query
/// value is brought to the same form so that comparisons are plain SQL comparisons.
enum SQLQueryValue: Hashable {
    /// JSON `null`: matches a missing field or a stored null.
    case null
    /// A number, string or boolean, bound as its target reads it (``SQLValueTarget/bind(_:_:)``).
    case scalar(JSONValue)
    /// A Date, normalised to the stored `iso` text; compared through the field's `iso` member.
    case date(iso: String, milliseconds: Int64)
    /// A Pointer (or an included object sent back): compared through `objectId` and `className`.
    case pointer(PointerValue)
    /// Any other object or array, as its canonical JSON text.
    case document(String)

    /// Classifies `value`; a plain string on a field the schema records as a Date counts as a date.
    ///
    /// - Throws: ``StoreError/Code/invalidQuery`` for a Date whose `iso` does not parse.
    init(_ value: JSONValue, schema: FieldSchema?) throws(StoreError) {
        switch value {
        case .null:
            self = .null
        case .bool, .int, .double:
            self = .scalar(value)
        case .string(let text):
            if schema?.type == .date, let milliseconds = BmobDateFormat.parse(text) {
                self = .date(milliseconds)
            } else {
                self = .scalar(value)
            }
        case .array:
            self = .document(value.jsonString)
        case .object(let members):
            switch members["__type"]?.stringValue {
            case "Date"?:
                guard let iso = members["iso"]?.stringValue, let milliseconds = BmobDateFormat.parse(iso) else {
                    throw StoreError.invalidQuery("invalid date in query")
                }
                self = .date(milliseconds)
            case "Pointer"?, "Object"?:
                guard let className = members["className"]?.stringValue,
                    let objectId = members["objectId"]?.stringValue
                else { throw StoreError.invalidQuery("invalid pointer in query") }
                self = .pointer(PointerValue(className: className, objectId: objectId))
            default:
                self = .document(value.jsonString)
            }
        }
    }

    /// A date at `milliseconds`, with the text the object service stores for it.
    static func date(_ milliseconds: Int64) -> SQLQueryValue {
        .date(iso: BmobDateFormat.format(millisecondsSince1970: milliseconds), milliseconds: milliseconds)
    }
}
