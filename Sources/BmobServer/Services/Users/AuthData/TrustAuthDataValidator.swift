package import BmobWire

/// For development only: believes the client and takes the account id from the first of `id`, `uid`,
/// `openid`, `unionid`, `sub` that is a non-empty string. Anyone can claim any account with it — never
/// configure it for a production app.
package struct TrustAuthDataValidator: AuthDataValidator {
    /// The members tried for the account id, in order.
    package static let idMembers = ["id", "uid", "openid", "unionid", "sub"]

    package init() {}

    package func validate(platform: String, authData: [String: JSONValue]) async throws -> String {
        for member in Self.idMembers {
            if case .string(let id)? = authData[member], !id.isEmpty { return id }
        }
        throw BmobAPIError(.authDataError, "authData.\(platform) needs one of \(Self.idMembers.joined(separator: ", "))")
    }
}
