/// An object as its stored JSON text: for answers that pass documents to clients without parsing them
/// (query results are most of a response's bytes, and parsing then re-encoding them dominated its cost).
package struct StoredDocument: Sendable, Equatable {
    package var objectId: String
    /// Milliseconds since 1970 UTC.
    package var createdAt: Int64
    /// Milliseconds since 1970 UTC.
    package var updatedAt: Int64
    /// The ACL as compact JSON text, or `nil` for none.
    package var acl: [UInt8]?
    /// The fields as a compact JSON object text (`{}` when there are none).
    package var data: [UInt8]

    package init(objectId: String, createdAt: Int64, updatedAt: Int64, acl: [UInt8]?, data: [UInt8]) {
        self.objectId = objectId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.acl = acl
        self.data = data
    }
}
