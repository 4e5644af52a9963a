import BmobCore
import Foundation

extension BmobChange {
    /// Brings back the object this change deleted, with its objectId, last fields and ACL, and returns it as
    /// the server now has it.
    ///
    /// ```swift
    /// let deleted = try await BmobObject.deletedObjects(className: "Note")
    /// let note = try await deleted[0].restore()
    /// ```
    ///
    /// - Returns: The restored object, freshly fetched.
    /// - Throws: ``BmobError/objectNotFound`` (101) when no deleted version is known, the object exists again
    ///   or the caller may not write it; other ``BmobError``s for network and server failures.
    public func restore() async throws -> BmobObject {
        try await BmobHistoryWire.restore(className: className, objectId: objectId)
        return try await BmobHistoryWire.fetch(className: className, objectId: objectId)
    }
}
