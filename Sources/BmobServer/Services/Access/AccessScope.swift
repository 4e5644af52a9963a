/// Who a request acts as, for ACLs and class permissions: the master key (everything allowed), or a set of
/// grantees — always `*`, plus the session's user id and `role:<Name>` for each role the user belongs to
/// (directly or through child roles).
package enum AccessScope: Sendable, Equatable {
    /// The master key: ACLs and class permissions do not apply.
    case master
    /// Anyone else, with the ACL grantee names that apply to the caller.
    case grantees(Set<String>)

    /// No session: only public access.
    package static let anonymous = AccessScope.grantees(["*"])

    /// The user id of the session, if any.
    package var userId: String? {
        guard case .grantees(let names) = self else { return nil }
        return names.first { $0 != "*" && !$0.hasPrefix("role:") }
    }
}
