package import BmobWire

/// What of a `_User` object a caller may see: everything with the master key; its own fields, but only the
/// linked ids of `authData`, for the user itself; and for everyone else the object without the app's protected
/// fields (``AppSecurity/protectedUserFields``: by default `email`, `mobilePhoneNumber` and `authData`).
///
/// `authData` secrets (access tokens, id tokens) are not stored for new links; ids are all that login needs.
/// Links stored before that may still hold them, so rendering keeps only `id` for anyone but the master key.
package struct UserPrivacy: Sendable, Equatable {
    /// Fields hidden from callers other than the user and the master key.
    package var protectedFields: Set<String>
    /// Who is looking.
    package var viewer: AccessScope

    /// The privacy of `viewer` under an app's policy.
    package init(protectedFields: Set<String>, viewer: AccessScope) {
        self.protectedFields = protectedFields
        self.viewer = viewer
    }

    /// Subscribers without a session (realtime): every protected field hidden.
    package static func anonymous(_ security: AppSecurity) -> UserPrivacy {
        UserPrivacy(protectedFields: security.protectedUserFields, viewer: .anonymous)
    }

    /// Fields no one but the master key sees, the user included: a password or session token that an older
    /// server or an import left in a user's row (this server keeps credentials and sessions in tables of their
    /// own, and answers a login's token beside the rendered user).
    package static let credentialFields: Set<String> = ["password", "sessionToken"]

    /// Whether `field` (the first segment of a path) may appear in this viewer's queries of `_User`: hidden
    /// fields are not queryable either, or a `where`, `order` or `$select` on them would reveal their values.
    package func mayQuery(_ field: String) -> Bool {
        if case .master = viewer { return true }
        return !protectedFields.contains(field) && field != "authData" && !Self.credentialFields.contains(field)
    }

    /// Removes from a rendered `_User` object what the viewer may not see.
    package func redact(_ members: inout [String: JSONValue], objectId: String) {
        if case .master = viewer { return }
        for field in Self.credentialFields where members[field] != nil { members[field] = nil }
        if viewer.userId != objectId {
            for field in protectedFields where members[field] != nil { members[field] = nil }
        }
        if let authData = members["authData"] {
            members["authData"] = Self.linkedIds(authData)
        }
    }

    /// `{"<platform>": {"id": …}}`: the ids of each linked platform, nothing else.
    package static func linkedIds(_ authData: JSONValue) -> JSONValue {
        guard case .object(let platforms) = authData else { return .object([:]) }
        var ids: [String: JSONValue] = [:]
        for (platform, data) in platforms {
            guard let id = data["id"] else { continue }
            ids[platform] = ["id": id]
        }
        return .object(ids)
    }
}
