public import BmobCore
package import BmobWire
import Foundation

/// A many-to-many link field, as read from the server (`{"__type":"Relation","className":…}`).
///
/// Change the members with ``BmobObject/addRelation(_:objects:)`` and
/// ``BmobObject/removeRelation(_:objects:)``; query them with `$relatedTo`.
public struct BmobRelation: Sendable, Hashable, BmobJSONConvertible {
    /// The class of the related objects.
    public var className: String

    /// A relation to objects of `className`.
    public init(className: String) {
        self.className = className
    }

    package var bmobJSON: JSONValue {
        ["__type": "Relation", "className": .string(className)]
    }
}
