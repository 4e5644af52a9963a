public import BmobCore
package import BmobWire
import Foundation

/// A reference to an object of another class: `{"__type":"Pointer","className":…,"objectId":…}`.
///
/// ```swift
/// note["author"] = BmobPointer(className: "_User", objectId: "user123")
/// ```
public struct BmobPointer: Sendable, Hashable, BmobJSONConvertible {
    /// The class of the object pointed to.
    public var className: String
    /// The id of the object pointed to.
    public var objectId: String

    /// A pointer to `objectId` in `className`.
    public init(className: String, objectId: String) {
        self.className = className
        self.objectId = objectId
    }

    /// A pointer to a saved object, or `nil` when it has no objectId yet.
    public init?(object: BmobObject) {
        guard let objectId = object.objectId else { return nil }
        self.init(className: object.className, objectId: objectId)
    }

    package var bmobJSON: JSONValue {
        ["__type": "Pointer", "className": .string(className), "objectId": .string(objectId)]
    }
}
