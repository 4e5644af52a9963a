public import BmobCore
package import BmobWire
import Foundation

/// Who may read and write one object: users by objectId, roles by name, and the public.
/// A new ACL grants nothing.
///
/// ```swift
/// let acl = BmobACL()
/// acl.setReadAccess(enabled: true, forRole: .public)
/// acl.setWriteAccess(enabled: true, forUserId: userId)
/// note.acl = acl
/// ```
///
/// Thread safety: the entries are only touched while `lock` is held, which makes it `Sendable`.
public final class BmobACL: @unchecked Sendable, BmobJSONConvertible {
    private let lock = NSLock()
    /// Grantee (`*`, a user id, `role:Name`) → ("read"|"write" → true).
    private var entries: [String: [String: Bool]] = [:]

    /// An ACL that grants nothing.
    public init() {}

    /// An ACL from its JSON form.
    package init(json: JSONValue) {
        for (grantee, rights) in json.objectValue ?? [:] {
            for (right, value) in rights.objectValue ?? [:] where value.boolValue == true {
                entries[grantee, default: [:]][right] = true
            }
        }
    }

    /// Grants or revokes read access for a user.
    public func setReadAccess(enabled: Bool, forUserId userId: String) { set("read", enabled, userId) }
    /// Grants or revokes write access for a user.
    public func setWriteAccess(enabled: Bool, forUserId userId: String) { set("write", enabled, userId) }
    /// Grants or revokes read access for everyone.
    public func setReadAccess(enabled: Bool, forRole role: BmobACLRole) { set("read", enabled, Self.grantee(role)) }
    /// Grants or revokes write access for everyone.
    public func setWriteAccess(enabled: Bool, forRole role: BmobACLRole) { set("write", enabled, Self.grantee(role)) }
    /// Grants or revokes read access for the members of a role.
    public func setReadAccess(enabled: Bool, forRoleName name: String) { set("read", enabled, "role:\(name)") }
    /// Grants or revokes write access for the members of a role.
    public func setWriteAccess(enabled: Bool, forRoleName name: String) { set("write", enabled, "role:\(name)") }

    /// Whether a user id, `*` or `role:Name` may read.
    public func readAccess(for grantee: String) -> Bool { lock.withLock { entries[grantee]?["read"] == true } }
    /// Whether a user id, `*` or `role:Name` may write.
    public func writeAccess(for grantee: String) -> Bool { lock.withLock { entries[grantee]?["write"] == true } }

    /// The role names (without `role:`) granted write access.
    package var writableRoleNames: [String] {
        lock.withLock {
            entries.compactMap { grantee, rights in
                rights["write"] == true && grantee.hasPrefix("role:") ? String(grantee.dropFirst(5)) : nil
            }
        }
    }

    package var bmobJSON: JSONValue {
        lock.withLock {
            .object(entries.mapValues { rights in .object(rights.mapValues { .bool($0) }) })
        }
    }

    private static func grantee(_ role: BmobACLRole) -> String {
        switch role {
        case .public: "*"
        }
    }

    private func set(_ right: String, _ enabled: Bool, _ grantee: String) {
        lock.withLock {
            if enabled {
                entries[grantee, default: [:]][right] = true
            } else {
                entries[grantee]?[right] = nil
                if entries[grantee]?.isEmpty == true { entries[grantee] = nil }
            }
        }
    }
}
