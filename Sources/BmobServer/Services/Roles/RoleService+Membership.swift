package import BmobStore
import BmobWire

extension RoleService {
    /// The names of every role a user belongs to: the roles whose `users` relation holds the user, plus,
    /// level by level, every role whose `roles` relation holds a role already found (members of a child role
    /// inherit its parents).
    ///
    /// One query finds the direct roles and one query per level finds the parents of the roles the previous
    /// level added, so the cost grows with the depth of the role tree, not with the number of roles. Each role
    /// is visited once, so cycles (`A` → `B` → `A`) end; at most ``maximumDepth`` levels of parents are
    /// followed, and deeper ancestors are ignored. Roles without a string `name` grant nothing.
    ///
    /// - Parameters:
    ///   - userId: the `_User` objectId.
    ///   - transaction: any read (or write) transaction of the app's store.
    /// - Returns: the role names, without the `role:` prefix.
    /// - Throws: ``StoreError``.
    package static func roleNames(forUserId userId: String, transaction: any StoreReadTransaction) throws -> Set<String>
    {
        let schema = try transaction.schema(className: className)
        guard schema[usersKey]?.type == .relation else { return [] }
        let member = PointerValue(className: UserService.className, objectId: userId)
        var found = try transaction.find(
            FindQuery(
                className: className, condition: .field(path: usersKey, constraints: [.equalTo(member.json)]),
                limit: .max))
        var names: Set<String> = []
        var visited: Set<String> = []
        guard schema[rolesKey]?.type == .relation else {
            for role in found { if let name = role.fields["name"]?.stringValue { names.insert(name) } }
            return names
        }
        var level = 0
        while true {
            var added: [String] = []
            for role in found where visited.insert(role.objectId).inserted {
                added.append(role.objectId)
                if let name = role.fields["name"]?.stringValue { names.insert(name) }
            }
            guard !added.isEmpty, level < maximumDepth else { return names }
            level += 1
            found = try transaction.relationOwners(
                className: className, key: rolesKey,
                holdingAnyOf: added.map { PointerValue(className: className, objectId: $0) })
        }
    }
}
