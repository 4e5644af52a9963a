/// A reference to another object: `{"__type":"Pointer","className":…,"objectId":…}`.
package struct PointerValue: Sendable, Hashable {
    package var className: String
    package var objectId: String

    package init(className: String, objectId: String) {
        self.className = className
        self.objectId = objectId
    }

    package var json: JSONValue {
        ["__type": "Pointer", "className": .string(className), "objectId": .string(objectId)]
    }

    /// Reads a Pointer object; `nil` for anything else.
    package init?(json: JSONValue) {
        guard json["__type"]?.stringValue == "Pointer", let className = json["className"]?.stringValue,
            let objectId = json["objectId"]?.stringValue
        else { return nil }
        self.init(className: className, objectId: objectId)
    }
}
