import BmobWire
import Foundation

/// Converts between BmobWire's `JSONValue` (what frames hold) and the Foundation values apps see in handlers and
/// pass to ``BirdChannel/trigger(_:data:)``: `[String: Any]`, `[Any]`, `String`, `Int`, `Double`, `Bool`, `NSNull`.
enum BirdJSON {
    /// The value as Foundation values (`null` → `NSNull`).
    static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let bool): bool
        case .int(let int): Int(exactly: int) ?? Double(int)
        case .double(let double): double
        case .string(let string): string
        case .array(let elements): elements.map(foundation)
        case .object(let members): members.mapValues(foundation)
        }
    }

    /// Foundation values as JSON.
    ///
    /// - Parameter value: a dictionary with `String` keys, array, string, number, `Bool`, `NSNull`, or an optional
    ///   holding one of them (`nil` is `null`), nested at most 64 deep.
    /// - Throws: ``BirdRealtimeError`` for any other value, a non-finite number, or deeper nesting.
    static func value(_ value: Any, depth: Int = 0) throws(BirdRealtimeError) -> JSONValue {
        guard depth < 64 else { throw BirdRealtimeError(message: "event data is nested too deeply") }
        switch value {
        case let value as JSONValue: return value
        case is NSNull: return .null
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(Int64(int))
        case let int as Int64: return .int(int)
        case let int as Int32: return .int(Int64(int))
        case let int as UInt8: return .int(Int64(int))
        case let double as Double:
            guard double.isFinite else { throw BirdRealtimeError(message: "event data has a non-finite number") }
            return .double(double)
        case let float as Float:
            guard float.isFinite else { throw BirdRealtimeError(message: "event data has a non-finite number") }
            return .double(Double(float))
        case let string as String: return .string(string)
        case let substring as Substring: return .string(String(substring))
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary { members[key] = try Self.value(element, depth: depth + 1) }
            return .object(members)
        case let array as [Any]:
            var elements: [JSONValue] = []
            for element in array { elements.append(try Self.value(element, depth: depth + 1)) }
            return .array(elements)
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                guard let wrapped = mirror.children.first?.value else { return .null }
                return try Self.value(wrapped, depth: depth + 1)
            }
            throw BirdRealtimeError(message: "event data must be JSON values (\(type(of: value)) is not)")
        }
    }
}
