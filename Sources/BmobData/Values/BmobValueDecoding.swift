import BmobCore
package import BmobWire
import Foundation

/// Turns stored JSON into the values the public API hands out: `BmobPointer`, `BmobGeoPoint`,
/// `BmobRelation` and `Date` for Bmob's typed values; included objects and files as `[String: Any]`;
/// everything else as plain Swift values (`String`, `Int`, `Double`, `Bool`, `[Any]`, `[String: Any]`, `NSNull`).
package enum BmobValueDecoding {
    /// The public value of `json`.
    package static func value(_ json: JSONValue) -> Any {
        switch json {
        case .array(let elements):
            return elements.map(value)
        case .object(let members):
            if let typed = typedValue(members) { return typed }
            var result: [String: Any] = [:]
            for (key, member) in members where key != "__type" || member.stringValue != "Object" {
                result[key] = value(member)
            }
            return result
        default:
            return BmobValueCoding.plainValue(json)
        }
    }

    private static func typedValue(_ members: [String: JSONValue]) -> Any? {
        switch members["__type"]?.stringValue {
        case "Pointer":
            guard let className = members["className"]?.stringValue, let objectId = members["objectId"]?.stringValue
            else { return nil }
            return BmobPointer(className: className, objectId: objectId)
        case "GeoPoint":
            guard let latitude = members["latitude"]?.doubleValue, let longitude = members["longitude"]?.doubleValue
            else { return nil }
            return BmobGeoPoint(latitude: latitude, longitude: longitude)
        case "Relation":
            guard let className = members["className"]?.stringValue else { return nil }
            return BmobRelation(className: className)
        case "Date":
            return members["iso"]?.stringValue.flatMap(BmobValueCoding.date(from:))
        default:
            return nil
        }
    }
}
