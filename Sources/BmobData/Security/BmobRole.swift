/// A role: a named group of users (and of other roles, whose members inherit it) that ACLs and class
/// permissions name as `role:<name>`.
///
/// ```swift
/// let admins = BmobRole(name: "Admin")
/// admins.addUsers([currentUser])
/// admins.acl = acl                    // who may change the role
/// try await admins.save()
///
/// acl.setReadAccess(enabled: true, forRoleName: "Admin")
/// ```
///
/// A name is letters, digits, spaces, `-` and `_`, unique in the app, and cannot change once saved.
open class BmobRole: BmobObject, @unchecked Sendable {
    /// The class of roles.
    public static let roleClassName = "_Role"

    /// A new role with this name.
    public init(name: String) {
        super.init(className: Self.roleClassName)
        self["name"] = name
    }

    /// The role's name.
    public var name: String? { string(forKey: "name") }

    /// Adds users (saved `_User` objects) to the role.
    public func addUsers(_ users: [BmobObject]) { addRelation("users", objects: pointers(users)) }

    /// Removes users from the role.
    public func removeUsers(_ users: [BmobObject]) { removeRelation("users", objects: pointers(users)) }

    /// Adds child roles: their members get this role too.
    public func addRoles(_ roles: [BmobRole]) { addRelation("roles", objects: pointers(roles)) }

    /// Removes child roles.
    public func removeRoles(_ roles: [BmobRole]) { removeRelation("roles", objects: pointers(roles)) }

    private func pointers(_ objects: [BmobObject]) -> [BmobPointer] {
        objects.compactMap { BmobPointer(object: $0) }
    }
}
