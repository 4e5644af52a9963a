package import BmobWire

/// A value the SDK stores as one of Bmob's typed JSON values (`{"__type":"Pointer",…}` and the like).
/// The SDK's value types (pointers, geo points, relations, ACLs, files) conform.
package protocol BmobJSONConvertible {
    /// The value as Bmob JSON.
    var bmobJSON: JSONValue { get }
}
