import BmobCore
import BmobWire
import Foundation

extension BmobObject {
    /// Replaces the object's state with the server's current version: fields the server no longer has are
    /// removed, unsaved changes are dropped, and ``isEditable`` is brought up to date (the current user's roles
    /// are looked up again when the ACL names roles).
    ///
    /// ```swift
    /// let note = BmobObject(className: "Note")
    /// note.objectId = id
    /// try await note.fetch()
    /// ```
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the object has no objectId,
    ///   ``BmobError/objectNotFound`` when it does not exist or the caller may not read it, other
    ///   ``BmobError``s for network and server failures.
    public func fetch() async throws {
        guard let objectId, !objectId.isEmpty else {
            throw BmobError.invalidParameter(reason: "the object has no objectId")
        }
        let answer = try await BmobClient.shared.call(
            "find", ["c": .string(className), "objectId": .string(objectId), "data": .null])
        guard let members = answer.objectValue, members["objectId"] != nil else { throw BmobError.objectNotFound }
        replace(serverFields: members)
        await loadEditorRoles(client: .shared)
    }
}
