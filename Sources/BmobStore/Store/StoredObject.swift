package import BmobWire

/// One object of a Bmob class as the store keeps it: system columns plus the fields as JSON.
package struct StoredObject: Sendable, Equatable {
    /// The class (table) the object belongs to.
    package var className: String
    /// The object's id, unique within its class.
    package var objectId: String
    /// Creation time, milliseconds since 1970 UTC.
    package var createdAt: Int64
    /// Last update time, milliseconds since 1970 UTC.
    package var updatedAt: Int64
    /// The object's ACL document, or `nil` for none (public read and write).
    package var acl: JSONValue?
    /// The fields other than the system ones, by name.
    package var fields: [String: JSONValue]

    /// Makes an object value.
    package init(
        className: String,
        objectId: String,
        createdAt: Int64,
        updatedAt: Int64,
        acl: JSONValue? = nil,
        fields: [String: JSONValue] = [:]
    ) {
        self.className = className
        self.objectId = objectId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.acl = acl
        self.fields = fields
    }

    /// The object as one JSON document, as the journal's `before`/`after` keep it: the fields plus
    /// `objectId`, `createdAt` and `updatedAt` (integer milliseconds) and `ACL` when set. The system keys
    /// win over fields of the same name. Front doors render dates their own way; this is storage form.
    package var json: JSONValue {
        var members = fields
        members["objectId"] = .string(objectId)
        members["createdAt"] = .int(createdAt)
        members["updatedAt"] = .int(updatedAt)
        members["ACL"] = acl
        return .object(members)
    }

    /// The JSON text of ``json`` as UTF-8 bytes, built around `fieldsJSON` (the JSON text of ``fields``,
    /// already encoded for the data column) so an insert encodes the fields once. Key order differs from
    /// ``json``'s encoding, which JSON readers ignore.
    package func jsonBytes(fieldsJSON fields: [UInt8]) -> [UInt8] {
        guard fields.count >= 2, fields.last == UInt8(ascii: "}") else { return json.jsonBytes }
        // Built as bytes: appending to a `String` and removing its last `Character` cost more than the rest.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.count + 96)
        bytes.append(contentsOf: fields.dropLast())
        if fields.count > 2 { bytes.append(UInt8(ascii: ",")) }
        if let acl {
            bytes.append(contentsOf: #""ACL":"#.utf8)
            acl.appendJSON(to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(contentsOf: #""createdAt":"#.utf8)
        ASCIIDecimal.append(createdAt, to: &bytes)
        bytes.append(contentsOf: #","objectId":"#.utf8)
        JSONValue.appendString(objectId, to: &bytes)
        bytes.append(contentsOf: #","updatedAt":"#.utf8)
        ASCIIDecimal.append(updatedAt, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Reads back a document made by ``json`` (a journal `before`/`after`), for revert and restore.
    ///
    /// - Returns: `nil` when `json` is not an object with a string `objectId` and integer dates.
    package init?(className: String, json: JSONValue) {
        guard var members = json.objectValue,
            let objectId = members.removeValue(forKey: "objectId")?.stringValue,
            let createdAt = members.removeValue(forKey: "createdAt")?.int64Value,
            let updatedAt = members.removeValue(forKey: "updatedAt")?.int64Value
        else { return nil }
        let acl = members.removeValue(forKey: "ACL")
        self.init(
            className: className, objectId: objectId, createdAt: createdAt, updatedAt: updatedAt, acl: acl,
            fields: members)
    }

    /// The ACL of a journal document (``json`` form): `nil` (public) when the document has none, and an empty ACL
    /// (no one but the master key) when there is no document.
    package static func acl(inJournalDocument document: JSONValue?) -> JSONValue? {
        guard let members = document?.objectValue else { return .object([:]) }
        guard let acl = members["ACL"], !acl.isNull else { return nil }
        return acl
    }
}
