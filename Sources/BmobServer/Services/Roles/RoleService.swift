package import BmobStore
package import BmobWire

/// Roles: the `_Role` objects behind REST `/1/roles`, and the role memberships that ACLs grant through
/// `role:<Name>` entries.
///
/// A role is an object of `_Role` with a `name`, an optional `ACL`, and two relations: `users` (pointers to
/// `_User`) and `roles` (pointers to `_Role`). A role's `roles` holds its *child* roles: the members of a
/// child role are members of the parent too (see ``roleNames(forUserId:transaction:)``).
///
/// `_Role` is one of ``ObjectService/managedClasses``: `/1/classes/_Role` may read it but every write goes
/// through this service, which keeps the role rules:
///
/// - **Name.** Required on create, made of ASCII letters, digits, spaces, `-` and `_` (at most
///   ``maximumNameLength`` characters), unique, and set only once: an update may repeat the name but not
///   change or delete it. Any break of these rules is 139.
/// - **Members.** `users` and `roles` change only through `AddRelation` / `RemoveRelation` with pointers to
///   `_User` and `_Role` respectively (111 otherwise).
/// - **Creating** needs the master key unless the app's ``AppSecurity/allowClientRoleCreation`` is on (501
///   otherwise), as roles are made by the developer in Bmob's console: a client that could create roles
///   could make `admin` beside `Admin` and put users in it. Names are unique regardless of case.
/// - **Changing and deleting** need the master key, or a caller to whom the role's own `ACL` grants `write`
///   (through `*`, the session's user id, or one of the user's roles), as in Parse. A role without an ACL is
///   public: anyone may change or delete it, so give roles an ACL. A caller without write access gets 101
///   "object not found", so a role's existence is not revealed to those who may not change it. Deleting
///   also needs a session or the master key (206 otherwise), as Bmob documents for `DELETE /1/roles`.
///
/// Reading roles (`GET /1/roles`, `GET /1/roles/<id>`) is the ordinary object read of ``ObjectService`` and
/// ``QueryService`` with the class `_Role`.
///
/// ## Topics
/// ### Writing roles
/// - ``create(body:context:)``
/// - ``update(objectId:body:context:)``
/// - ``delete(objectId:context:)``
/// ### Membership
/// - ``roleNames(forUserId:transaction:)``
/// - ``scope(_:)``
package struct RoleService: Sendable {
    /// The class of roles.
    package static let className = "_Role"
    /// The relation holding a role's users.
    package static let usersKey = "users"
    /// The relation holding a role's child roles.
    package static let rolesKey = "roles"
    /// The longest role name accepted, in characters (an ACL entry `role:<Name>` must stay short).
    package static let maximumNameLength = 128
    /// How many levels of child roles ``roleNames(forUserId:transaction:)`` follows.
    package static let maximumDepth = 16

    /// The time stamped on created and updated roles.
    package let clock: ServerClock
    /// How new roles get their objectId.
    package let ids: ObjectIdGenerator
    /// Resolves session tokens to users, for write checks and ``scope(_:)``.
    package let users: UserService

    /// Makes the service.
    ///
    /// - Parameters:
    ///   - clock: the time stamped on created and updated roles.
    ///   - users: the user service, which resolves the caller's session.
    ///   - ids: how new roles get their objectId.
    package init(clock: ServerClock, users: UserService, ids: ObjectIdGenerator = .ascending) {
        self.clock = clock
        self.users = users
        self.ids = ids
    }

    /// Creates a role from `{"name", "ACL"?, "users"?: AddRelation, "roles"?: AddRelation, …other fields}`.
    ///
    /// - Returns: the stored role.
    /// - Throws: ``BmobAPIError`` 139 for a missing, invalid or taken name; 111 for `users`/`roles` values that
    ///   are not relation operators on `_User`/`_Role`; the errors of any object create (105, 106, 107 …).
    package func create(body: [String: JSONValue], context: AppContext) async throws -> StoredObject {
        guard context.isMaster || context.app.security.allowClientRoleCreation else {
            throw BmobAPIError(
                .forbidden, "roles can be created only with the master key (the app's allowClientRoleCreation is off)")
        }
        let name = try Self.validateNewName(body["name"])
        try Self.validateMembers(body)
        let now = clock.nowMilliseconds()
        let ids = self.ids
        let security = context.app.security
        let role = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                if let existing = try Self.role(named: name, transaction: transaction) {
                    let taken = existing.fields["name"]?.stringValue ?? name
                    throw BmobAPIError(
                        .invalidRoleName,
                        taken == name ? "duplicate role name: \(name)" : "duplicate role name: \(name) (the role \(taken) exists)")
                }
                return try ObjectService.insert(
                    className: Self.className, body: body, now: now, ids: ids, security: security,
                    transaction: transaction)
            }
        }
        context.sessions.forgetAll()  // memberships may have changed: every cached caller's roles
        return role
    }

    /// Applies a body of values and operators to a role the caller may write.
    ///
    /// - Returns: the role after the update.
    /// - Throws: ``BmobAPIError`` 101 when the role does not exist or its ACL denies the caller `write`; 139
    ///   when the body changes or deletes `name`; 111 for bad `users`/`roles` values; the errors of any update.
    package func update(objectId: String, body: [String: JSONValue], context: AppContext) async throws -> StoredObject {
        try Self.validateMembers(body)
        let caller = try await writer(context)
        let now = clock.nowMilliseconds()
        let security = context.app.security
        let role = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                let role = try Self.writableRole(objectId, caller: caller, transaction: transaction)
                if let name = body["name"] {
                    guard name == role.fields["name"] else {
                        throw BmobAPIError(.invalidRoleName, "a role's name can be set only once")
                    }
                }
                return try ObjectService.update(
                    className: Self.className, objectId: objectId, body: body, now: now, security: security,
                    transaction: transaction)
            }
        }
        context.sessions.forgetAll()  // memberships may have changed: every cached caller's roles
        return role
    }

    /// Deletes a role the caller may write, with its `users` and `roles` memberships. Parents that list the
    /// role as a child keep a dangling entry, which matches no one.
    ///
    /// - Throws: ``BmobAPIError`` 206 without a valid session or the master key; 101 when the role does not
    ///   exist or its ACL denies the caller `write`.
    package func delete(objectId: String, context: AppContext) async throws {
        let caller = try await writer(context)
        if case .session(.none) = caller {
            throw BmobAPIError(.sessionRequired, "a role can be deleted only with a session token or the master key")
        }
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                _ = try Self.writableRole(objectId, caller: caller, transaction: transaction)
                try transaction.delete(className: Self.className, objectId: objectId)
            }
        }
        context.sessions.forgetAll()
    }

    /// Who is writing: the master key, or the session's user (`nil` without a valid session).
    private enum Writer: Sendable {
        case master
        case session(String?)
    }

    private func writer(_ context: AppContext) async throws -> Writer {
        context.isMaster ? .master : .session(try await users.callers.sessionUserId(context))
    }

    /// The role `objectId`, when it exists and `caller` may write it.
    ///
    /// - Throws: 101 when it does not exist or its ACL does not grant the caller `write`.
    private static func writableRole(
        _ objectId: String, caller: Writer, transaction: any StoreReadTransaction
    ) throws -> StoredObject {
        guard let role = try transaction.fetch(className: className, objectId: objectId) else {
            throw BmobAPIError.objectNotFound(objectId)
        }
        guard case .session(let userId) = caller else { return role }
        guard try canWrite(acl: role.acl, userId: userId, transaction: transaction) else {
            throw BmobAPIError.objectNotFound(objectId)
        }
        return role
    }

    /// Whether an ACL grants `write` (as ``AccessScope/canWrite(_:)`` decides) to the public, to `userId`, or
    /// to one of `userId`'s roles; an absent ACL grants it to everyone. Roles are looked up only when the ACL
    /// grants nothing to the public or the user and names a role.
    private static func canWrite(acl: JSONValue?, userId: String?, transaction: any StoreReadTransaction) throws -> Bool
    {
        guard let userId else { return AccessScope.anonymous.canWrite(acl) }
        var grantees: Set<String> = ["*", userId]
        if AccessScope.grantees(grantees).canWrite(acl) { return true }
        guard let entries = acl?.objectValue, entries.keys.contains(where: { $0.hasPrefix("role:") }) else {
            return false
        }
        for name in try roleNames(forUserId: userId, transaction: transaction) { grantees.insert("role:" + name) }
        return AccessScope.grantees(grantees).canWrite(acl)
    }

    /// The role called `name` in any case (`admin` finds `Admin`), if there is one. Names hold only letters,
    /// digits, spaces, `-` and `_` (``isValidName(_:)``), none of them special in a pattern.
    private static func role(named name: String, transaction: any StoreReadTransaction) throws -> StoredObject? {
        let query = FindQuery(
            className: className,
            condition: .field(path: "name", constraints: [.matchesRegex(pattern: "^\(name)$", options: "i")]), limit: 1)
        return try transaction.find(query).first
    }

    /// The name of a new role: a string of letters, digits, spaces, `-` and `_`.
    ///
    /// - Throws: 139 when it is missing or breaks the rules.
    private static func validateNewName(_ value: JSONValue?) throws(BmobAPIError) -> String {
        guard let value, !value.isNull else {
            throw BmobAPIError(.invalidRoleName, "a role needs a name")
        }
        guard case .string(let name) = value, isValidName(name) else {
            throw BmobAPIError(
                .invalidRoleName, "invalid role name: a role name uses only letters, digits, spaces, '-' and '_'")
        }
        return name
    }

    /// Letters, digits, spaces, `-` and `_` (ASCII), 1…``maximumNameLength`` of them.
    package static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maximumNameLength else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }

    /// `users` and `roles`, when present, must be `AddRelation`/`RemoveRelation` of `_User` and `_Role`
    /// pointers.
    ///
    /// - Throws: 111 otherwise (107/106 for malformed operators).
    private static func validateMembers(_ body: [String: JSONValue]) throws(BmobAPIError) {
        for (key, targetClass) in [(usersKey, UserService.className), (rolesKey, className)] {
            guard let value = body[key] else { continue }
            let expected = "invalid type for key '\(key)', expected 'Relation<\(targetClass)>'"
            let targets: [PointerValue]
            switch try UpdateOperation(value, field: key) {
            case .addRelation(let pointers), .removeRelation(let pointers):
                targets = pointers
            default:
                throw BmobAPIError(.incorrectType, expected + "; use AddRelation or RemoveRelation")
            }
            if let other = targets.first(where: { $0.className != targetClass }) {
                throw BmobAPIError(.incorrectType, expected + ", but got 'Relation<\(other.className)>'")
            }
        }
    }
}
