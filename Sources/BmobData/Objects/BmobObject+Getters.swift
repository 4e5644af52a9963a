import BmobCore
import BmobWire
public import Foundation

extension BmobObject {
    /// A text field.
    public func string(forKey key: String) -> String? { self[key] as? String }

    /// An integer field (a whole floating-point value counts).
    public func int(forKey key: String) -> Int? {
        switch self[key] {
        case let value as Int: value
        case let value as Double: Int(exactly: value)
        default: nil
        }
    }

    /// A number field as a `Double`.
    public func double(forKey key: String) -> Double? {
        switch self[key] {
        case let value as Double: value
        case let value as Int: Double(value)
        default: nil
        }
    }

    /// A boolean field.
    public func bool(forKey key: String) -> Bool? { self[key] as? Bool }

    /// A date field (a Bmob Date value, or text in one of Bmob's date forms).
    public func date(forKey key: String) -> Date? {
        switch self[key] {
        case let value as Date: value
        case let value as String: BmobValueCoding.date(from: value)
        default: nil
        }
    }

    /// An array field.
    public func array(forKey key: String) -> [Any]? { self[key] as? [Any] }

    /// An object field (also an included pointer's object).
    public func dictionary(forKey key: String) -> [String: Any]? { self[key] as? [String: Any] }

    /// A pointer field; an included object counts as a pointer to it.
    public func pointer(forKey key: String) -> BmobPointer? {
        switch self[key] {
        case let pointer as BmobPointer: return pointer
        case let object as [String: Any]:
            guard let className = object["className"] as? String, let objectId = object["objectId"] as? String
            else { return nil }
            return BmobPointer(className: className, objectId: objectId)
        default: return nil
        }
    }

    /// An included pointer field as an object (after ``BmobQuery/includeKey(_:)``).
    public func object(forKey key: String) -> BmobObject? {
        guard let json = lock.withLock({ fields[key] })?.objectValue,
            let className = json["className"]?.stringValue, json["objectId"] != nil
        else { return nil }
        return BmobObject(className: className, json: json)
    }

    /// A geo point field.
    public func geoPoint(forKey key: String) -> BmobGeoPoint? { self[key] as? BmobGeoPoint }
}
