import BmobCrypto
package import BmobWire
package import Foundation

/// Converts between the `Any` values of the public API (`object["title"] = "…"`) and JSON.
package enum BmobValueCoding {
    /// JSON for a value given to the SDK: `nil`/`NSNull`, `Bool`, integers, floating-point numbers, `String`,
    /// `Date` (as `{"__type":"Date","iso":"yyyy-MM-dd HH:mm:ss"}` in UTC), `Data` (base64 text), arrays,
    /// string-keyed dictionaries, and the SDK's own value types.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` naming the unsupported type.
    package static func encode(_ value: Any?) throws(BmobError) -> JSONValue {
        guard let value else { return .null }
        switch value {
        case let convertible as any BmobJSONConvertible: return convertible.bmobJSON
        case let json as JSONValue: return json
        case is NSNull: return .null
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(Int64(int))
        case let int as Int64: return .int(int)
        case let int as Int32: return .int(Int64(int))
        case let int as Int16: return .int(Int64(int))
        case let int as Int8: return .int(Int64(int))
        case let int as UInt: return try unsigned(UInt64(int))
        case let int as UInt64: return try unsigned(int)
        case let int as UInt32: return .int(Int64(int))
        case let int as UInt16: return .int(Int64(int))
        case let int as UInt8: return .int(Int64(int))
        case let double as Double: return try finite(double)
        case let float as Float: return try finite(Double(float))
        case let string as String: return .string(string)
        case let substring as Substring: return .string(String(substring))
        case let date as Date: return Self.date(date)
        case let data as Data: return .string(Base64.encodeString(data))
        case let url as URL: return .string(url.absoluteString)
        case let number as NSNumber: return Self.number(number)
        case let array as [Any?]: return .array(try array.map { (element) throws(BmobError) in try encode(element) })
        case let array as [Any]: return .array(try array.map { (element) throws(BmobError) in try encode(element) })
        case let dictionary as [String: Any?]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary { members[key] = try encode(element) }
            return .object(members)
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary { members[key] = try encode(element) }
            return .object(members)
        default:
            throw .invalidParameter(reason: "values of type \(type(of: value)) cannot be stored")
        }
    }

    /// A date as Bmob's Date value.
    package static func date(_ date: Date) -> JSONValue {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        return ["__type": "Date", "iso": .string(BmobDateFormat.format(millisecondsSince1970: milliseconds))]
    }

    /// A date from Bmob's text forms (`yyyy-MM-dd HH:mm:ss`, ISO 8601), or `nil`.
    package static func date(from text: String) -> Date? {
        BmobDateFormat.parse(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// The plain Swift value of JSON: `NSNull` for null, `Bool`, `Int`, `Double`, `String`, `[Any]`,
    /// `[String: Any]`. Typed values stay dictionaries; the data module decodes them.
    package static func plainValue(_ json: JSONValue) -> Any {
        switch json {
        case .null: NSNull()
        case .bool(let value): value
        case .int(let value): Int(exactly: value) ?? Double(value)
        case .double(let value): value
        case .string(let value): value
        case .array(let values): values.map(plainValue)
        case .object(let members): members.mapValues(plainValue)
        }
    }

    private static func unsigned(_ value: UInt64) throws(BmobError) -> JSONValue {
        guard let signed = Int64(exactly: value) else {
            throw .invalidParameter(reason: "\(value) does not fit a 64-bit signed integer")
        }
        return .int(signed)
    }

    private static func finite(_ value: Double) throws(BmobError) -> JSONValue {
        guard value.isFinite else { throw .invalidParameter(reason: "\(value) is not a finite number") }
        return .double(value)
    }

    private static func number(_ number: NSNumber) -> JSONValue {
        // Booleans report the type code of C `char`, floating-point numbers `f` or `d`.
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return .double(number.doubleValue)
        default: return .int(number.int64Value)
        }
    }
}
