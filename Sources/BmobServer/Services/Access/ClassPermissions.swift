package import BmobStore
package import BmobWire

/// A class's class-level permissions, as `/1/schemas` takes and shows them under `classLevelPermissions`:
///
/// ```json
/// {"get": {"*": true}, "find": {"requiresAuthentication": true}, "create": {"role:Editors": true},
///  "update": {"<userId>": true}, "delete": {}, "addField": {}}
/// ```
///
/// Per operation, the callers allowed: `*` (everyone: Bmob's "public"), `requiresAuthentication` (any
/// logged-in user: Bmob's "user"), a user id, or `role:<Name>`. An operation that is not listed is open to
/// everyone; `{}` closes it to all but the master key. ACLs still apply to each object on top.
package struct ClassPermissions: Sendable, Equatable {
    /// Allowed grantees per operation; a missing operation is open.
    package var rules: [ClassOperation: Set<String>]

    /// Permissions from their JSON form.
    ///
    /// - Throws: 107 for an unknown operation, a non-object rule or a grantee not set to `true`.
    package init(json: JSONValue) throws(BmobAPIError) {
        guard case .object(let members) = json else {
            throw BmobAPIError(.invalidJSON, "classLevelPermissions must be an object")
        }
        var rules: [ClassOperation: Set<String>] = [:]
        for (name, rule) in members {
            guard let operation = ClassOperation(rawValue: name) else {
                throw BmobAPIError(.invalidJSON, "unknown class permission '\(name)'")
            }
            guard case .object(let grantees) = rule else {
                throw BmobAPIError(.invalidJSON, "classLevelPermissions.\(name) must be an object")
            }
            var allowed: Set<String> = []
            for (grantee, value) in grantees {
                guard value == .bool(true) else {
                    throw BmobAPIError(.invalidJSON, "classLevelPermissions.\(name).\(grantee) must be true")
                }
                allowed.insert(grantee)
            }
            rules[operation] = allowed
        }
        self.rules = rules
    }

    /// The JSON form.
    package var json: JSONValue {
        var members: [String: JSONValue] = [:]
        for (operation, grantees) in rules {
            members[operation.rawValue] = .object(Dictionary(uniqueKeysWithValues: grantees.map { ($0, JSONValue.bool(true)) }))
        }
        return .object(members)
    }

    /// Whether `scope` may perform `operation`.
    package func allows(_ operation: ClassOperation, _ scope: AccessScope) -> Bool {
        guard case .grantees(let names) = scope, let allowed = rules[operation] else { return true }
        if allowed.contains("requiresAuthentication"), scope.userId != nil { return true }
        return !allowed.isDisjoint(with: names)
    }

    /// Checks `operation` on `className` against the stored permissions.
    ///
    /// - Throws: 501 "forbidden" when the class's permissions do not allow it.
    package static func check(
        _ operation: ClassOperation, className: String, scope: AccessScope, transaction: any StoreReadTransaction
    ) throws {
        guard case .grantees = scope, let stored = try transaction.classPermissions(className: className) else { return }
        guard let permissions = try? ClassPermissions(json: stored), permissions.allows(operation, scope) else {
            throw BmobAPIError(.forbidden, "class permissions of \(className) do not allow \(operation.rawValue)")
        }
    }
}
