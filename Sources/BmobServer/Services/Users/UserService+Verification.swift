package import BmobWire

/// The verification flags a new user starts with.
extension UserService {
    /// Sets `emailVerified: false` when `fields` hold a non-empty email address: it stays `false` until the user
    /// follows the link of `POST /1/requestEmailVerify` (see ``EmailLinkService``). Signup calls it after
    /// removing the protected fields.
    package static func addVerificationDefaults(to fields: inout [String: JSONValue]) {
        if case .string(let email)? = fields["email"], !email.isEmpty {
            fields["emailVerified"] = false
        }
    }
}
