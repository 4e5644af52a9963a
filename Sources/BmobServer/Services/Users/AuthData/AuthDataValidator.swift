package import BmobWire

/// Checks third-party login data (`authData.<platform>`) with the platform and says whose account it is.
///
/// One validator serves each configured platform of an app. Built in: ``TrustAuthDataValidator`` (for
/// development: believes the client) and ``OIDCAuthDataValidator`` (verifies an OpenID Connect id token against
/// the provider's keys). WeChat, QQ and Weibo validators, which call those platforms' APIs, plug in by
/// conforming to this protocol.
package protocol AuthDataValidator: Sendable {
    /// Verifies `authData` (the platform's object, e.g. `{"openid": …, "access_token": …}`).
    ///
    /// - Returns: the account's stable id on that platform (an openid, a uid, an id token's `sub`).
    /// - Throws: ``BmobAPIError`` 208 when the data is missing, malformed, expired or not genuine.
    func validate(platform: String, authData: [String: JSONValue]) async throws -> String
}
