import BmobCrypto
package import BmobWire
import Foundation

/// Verifies an OpenID Connect id token (Sign in with Apple, Google, Microsoft, Auth0, Keycloak, any OIDC
/// provider) and answers its `sub`.
///
/// The token comes from `authData.<platform>.id_token` (or `identityToken`, Apple's name, or `token`). It is
/// accepted only when all of these hold:
/// - it is a compact JWS signed with `RS256` (`none`, `HS256` and every other algorithm are refused);
/// - its `kid` names one of the provider's keys (a token without `kid` needs a set of exactly one key) and the
///   signature verifies with that key;
/// - `iss` equals the configured issuer, and `aud` (a string or an array) holds one of the configured
///   audiences;
/// - `exp` is in the future, and `nbf` and `iat`, when present, are not, each with ``leewaySeconds`` of
///   leeway for clock skew;
/// - `sub` is a non-empty string of at most ``maximumSubjectByteCount`` bytes.
///
/// The provider's keys are either given inline (`jwks`) or fetched from its `jwks_uri` (`jwksURL`), kept for
/// an hour and refetched early, at most once a minute, when a token names a key not yet seen.
///
/// The token's `nonce`, `azp` and `at_hash` are not checked: the server did not start the sign-in, so it has
/// no nonce to compare, and clients that need one check it themselves.
///
/// ## Topics
///
/// ### Configuring
/// - ``init(settings:clock:fetcher:)``
/// - ``init(settings:keySets:)``
/// - ``OIDCKeySetCache``
/// - ``issuer``
/// - ``audiences``
///
/// ### Validating
/// - ``validate(platform:authData:)``
/// - ``tokenMembers``
/// - ``leewaySeconds``
package struct OIDCAuthDataValidator: AuthDataValidator {
    /// The `authData` members tried for the token, in order.
    package static let tokenMembers = ["id_token", "identityToken", "token"]
    /// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds.
    package static let leewaySeconds: Int64 = 60
    /// Longer subjects are refused (OpenID Connect Core §2 caps `sub` at 255 ASCII characters).
    package static let maximumSubjectByteCount = 255

    /// The `iss` a token must carry.
    package let issuer: String
    /// The `aud` values accepted; a token must name at least one.
    package let audiences: [String]
    /// The clock that decides whether a token is current.
    package let clock: ServerClock
    /// The keys given in the settings, when `jwks` is used.
    private let inlineKeys: JSONWebKeySet?
    /// The keys fetched from `jwksURL`, when it is used.
    private let remoteKeys: OIDCKeyStore?

    /// A validator configured by a platform's settings, with keys fetched from `jwksURL` kept by this validator
    /// and its copies only.
    ///
    /// Settings:
    /// - `issuer` (required): the provider's issuer identifier, exactly as its tokens' `iss`, e.g.
    ///   `https://accounts.google.com`.
    /// - `audience` (required): the client id the tokens are issued to, or an array of them.
    /// - `jwks`: the provider's JSON Web Key Set inline, `{"keys": [...]}`; or
    /// - `jwksURL`: the `https` URL the provider publishes it at (its discovery document's `jwks_uri`).
    ///
    /// Exactly one of `jwks` and `jwksURL` is required. Other members (such as `type`) are ignored.
    ///
    /// A validator made for each login would fetch the key set each time: make those with
    /// ``init(settings:keySets:)`` and one shared ``OIDCKeySetCache`` instead.
    ///
    /// - Parameters:
    ///   - settings: The platform's settings object.
    ///   - clock: Now, for `exp`, `nbf` and `iat`, and for the key cache.
    ///   - fetcher: Downloads the set from `jwksURL`; tests pass one that needs no network.
    /// - Throws: ``ConfigurationError`` naming the setting that is missing or invalid.
    package init(settings: [String: JSONValue], clock: ServerClock, fetcher: OIDCKeySetFetcher = .urlSession) throws {
        try self.init(settings: settings, keySets: OIDCKeySetCache(fetcher: fetcher, clock: clock))
    }

    /// A validator configured by a platform's settings (see ``init(settings:clock:fetcher:)``), whose keys
    /// fetched from `jwksURL` live in `keySets`, shared with every other validator made with it.
    ///
    /// - Parameters:
    ///   - settings: The platform's settings object.
    ///   - keySets: The server's cache of fetched key sets, which also supplies the clock.
    /// - Throws: ``ConfigurationError`` naming the setting that is missing or invalid.
    package init(settings: [String: JSONValue], keySets: OIDCKeySetCache) throws {
        guard case .string(let issuer)? = settings["issuer"], !issuer.isEmpty else {
            throw ConfigurationError("OIDC: issuer must be a non-empty string (the provider's iss)")
        }
        switch settings["audience"] {
        case .string(let audience)? where !audience.isEmpty:
            audiences = [audience]
        case .array(let values)? where !values.isEmpty && values.allSatisfy({ $0.stringValue?.isEmpty == false }):
            audiences = values.compactMap(\.stringValue)
        default:
            throw ConfigurationError("OIDC: audience must be a non-empty string or array of strings (the client ids)")
        }
        switch (settings["jwks"], settings["jwksURL"]) {
        case (let jwks?, nil):
            do {
                inlineKeys = try JSONWebKeySet(json: jwks)
            } catch {
                throw ConfigurationError("OIDC: jwks: \(error.message)")
            }
            remoteKeys = nil
        case (nil, .string(let text)?):
            guard let url = URL(string: text), url.scheme?.lowercased() == "https", url.host?.isEmpty == false else {
                throw ConfigurationError("OIDC: jwksURL must be an https URL")
            }
            inlineKeys = nil
            remoteKeys = keySets.store(for: url)
        case (nil, _?):
            throw ConfigurationError("OIDC: jwksURL must be an https URL")
        case (nil, nil):
            throw ConfigurationError("OIDC: one of jwks (the key set) or jwksURL (where to fetch it) is required")
        case (_?, _?):
            throw ConfigurationError("OIDC: give jwks or jwksURL, not both")
        }
        self.issuer = issuer
        self.clock = keySets.clock
    }

    /// Verifies the id token in `authData` and answers its `sub`.
    ///
    /// - Parameters:
    ///   - platform: The `authData` member the data came under, for messages.
    ///   - authData: The platform's object, holding the token under one of ``tokenMembers``.
    /// - Returns: The token's `sub`, the account's id at the provider.
    /// - Throws: ``BmobAPIError`` 208 (`authDataError`) saying why the token is refused.
    package func validate(platform: String, authData: [String: JSONValue]) async throws -> String {
        let fail = { (reason: String) in BmobAPIError(.authDataError, "authData.\(platform): \(reason)") }
        guard let text = Self.tokenMembers.lazy.compactMap({ authData[$0]?.stringValue }).first, !text.isEmpty else {
            throw fail("needs an id token in id_token")
        }
        let token: JSONWebToken
        do {
            token = try JSONWebToken(compact: text)
        } catch {
            throw fail("the id token is malformed: \(error.message)")
        }
        guard token.algorithm == "RS256" else { throw fail("the id token must be signed with RS256") }
        guard let key = try await key(id: token.keyID, fail: fail) else {
            throw fail(
                token.keyID == nil
                    ? "the id token names no key (kid) and the provider has several"
                    : "the id token's key (kid) is not one of the provider's keys")
        }
        guard key.publicKey.verifySHA256PKCS1(message: token.signingInput, signature: token.signature) else {
            throw fail("the id token's signature is not valid")
        }
        if let reason = refusal(of: token.claims) { throw fail(reason) }
        guard case .string(let subject)? = token.claims["sub"], !subject.isEmpty else {
            throw fail("the id token has no sub")
        }
        guard subject.utf8.count <= Self.maximumSubjectByteCount else {
            throw fail("the id token's sub is longer than \(Self.maximumSubjectByteCount) bytes")
        }
        return subject
    }

    /// The provider key a token names, from the inline set or the fetched one.
    private func key(id keyID: String?, fail: (String) -> BmobAPIError) async throws -> JSONWebKey? {
        if let inlineKeys { return inlineKeys.key(id: keyID) }
        guard let remoteKeys else { return nil }
        do {
            return try await remoteKeys.key(id: keyID)
        } catch {
            throw fail("the provider's keys could not be fetched")
        }
    }
}
