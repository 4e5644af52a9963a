/// Who an operation runs as, resolved once per request or batch element (``CallerResolver``): the master key,
/// a signed-in user with the roles it belongs to (directly or through child roles), or anyone else.
package enum Caller: Sendable, Equatable {
    /// The master key: ACLs and class permissions do not apply.
    case master
    /// A valid session's user, with the names of its roles (without `role:`).
    case user(id: String, roles: Set<String>)
    /// No session, or one that is unknown or expired.
    case anonymous

    /// The signed-in user's id, if any.
    package var userId: String? {
        if case .user(let id, _) = self { id } else { nil }
    }

    /// The grantees ACLs and class permissions are checked against.
    package var scope: AccessScope {
        switch self {
        case .master:
            return .master
        case .anonymous:
            return .anonymous
        case .user(let id, let roles):
            var grantees: Set<String> = ["*", id]
            for name in roles { grantees.insert("role:" + name) }
            return .grantees(grantees)
        }
    }

    /// Who the journal records as the author of a write: the user id, `master`, or `nil` for anyone else.
    package var journalAuthor: String? {
        switch self {
        case .master: "master"
        case .user(let id, _): id
        case .anonymous: nil
        }
    }
}
