package import BmobCore
import BmobWire
import Foundation

extension BmobObject {
    /// Whether the current user may change or delete the object, as far as its ACL says.
    ///
    /// The SDK never holds the master key, so the rule is the ACL's, read on the device:
    /// - an object not saved yet, or without an ACL, is editable;
    /// - an ACL granting write to everyone (`*`) makes it editable;
    /// - otherwise a logged-in user is needed: write granted to the user's objectId, or to a role the user
    ///   belonged to when the object was last fetched (``fetch()`` and ``BmobQuery/get(objectId:)`` look the
    ///   roles up — through the `_Role` class, so only roles the user can read count — when the ACL names
    ///   any; objects from ``BmobQuery/find()`` know no roles until fetched);
    /// - with no user logged in, only public write counts.
    ///
    /// Class-level permissions and the server's other checks are not considered: `true` means the ACL does not
    /// stand in the way, and the server still decides.
    public var isEditable: Bool {
        let (objectId, acl, roles) = lock.withLock { (storedObjectId, storedACL, editorRoles) }
        guard objectId != nil, let acl else { return true }
        if acl.writeAccess(for: "*") { return true }
        guard let userId = BmobClient.shared.user.objectId else { return false }
        if acl.writeAccess(for: userId) { return true }
        guard let roles, roles.userId == userId else { return false }
        return acl.writableRoleNames.contains { roles.names.contains($0) }
    }

    /// Looks up the roles of the user `client` runs as, when the ACL grants write to roles and to neither the
    /// user nor everyone; ``isEditable`` reads the answer. A failed lookup counts as no roles.
    package func loadEditorRoles(client: BmobClient) async {
        let acl = self.acl
        guard let userId = client.user.objectId else {
            lock.withLock { editorRoles = nil }
            return
        }
        guard let acl, !acl.writeAccess(for: "*"), !acl.writeAccess(for: userId), !acl.writableRoleNames.isEmpty
        else {
            lock.withLock { editorRoles = (userId, []) }
            return
        }
        let names = await Self.roleNames(ofUser: userId, client: client)
        lock.withLock { editorRoles = (userId, names) }
    }

    /// The names of the roles whose `users` hold the user, and of their parent roles (roles whose `roles`
    /// hold one already found), up to five levels; roles the caller cannot read are not seen.
    private static func roleNames(ofUser userId: String, client: BmobClient) async -> Set<String> {
        var names: Set<String> = []
        var visited: Set<String> = []
        var level = try? await roles(where: "users", holds: BmobPointer(className: "_User", objectId: userId), client)
        var depth = 0
        while let found = level, depth < 5 {
            var next: [BmobObject] = []
            for role in found {
                guard let id = role.objectId, visited.insert(id).inserted else { continue }
                if let name = role.string(forKey: "name") { names.insert(name) }
                let parents = try? await roles(
                    where: "roles", holds: BmobPointer(className: "_Role", objectId: id), client)
                next += parents ?? []
            }
            level = next.isEmpty ? nil : next
            depth += 1
        }
        return names
    }

    /// The roles whose relation `key` holds `member`.
    private static func roles(where key: String, holds member: BmobPointer, _ client: BmobClient) async throws
        -> [BmobObject]
    {
        var query = BmobQuery(className: "_Role").whereKey(key, equalTo: member).limit(1000)
        query.client = client
        return try await query.find()
    }
}
