package import BmobWire

/// Makes an app's third-party login validators from its `authProviders` settings, by each platform's `type`.
/// Built in: `trust` (``TrustAuthDataValidator``, development only) and, in ``standard(clock:)``, `oidc`. More
/// types plug in with
/// ``registering(_:_:)`` before the server starts (an OpenID Connect validator, or WeChat/QQ/Weibo ones that call
/// those platforms' APIs).
package struct AuthDataValidators: Sendable {
    /// Makes a validator from a platform's settings.
    package typealias Factory = @Sendable (_ settings: [String: JSONValue]) throws -> any AuthDataValidator

    private var factories: [String: Factory]

    /// The built-in types that need no server state: `trust`.
    package static let builtIn = AuthDataValidators(factories: ["trust": { _ in TrustAuthDataValidator() }])

    /// What a server uses: `trust`, and `oidc` (``OIDCAuthDataValidator``) with one key-set cache for the
    /// server, so that logins share the providers' fetched keys.
    package static func standard(clock: ServerClock) -> AuthDataValidators {
        let keySets = OIDCKeySetCache(clock: clock)
        return builtIn.registering("oidc") { settings in try OIDCAuthDataValidator(settings: settings, keySets: keySets) }
    }

    private init(factories: [String: Factory]) {
        self.factories = factories
    }

    /// These validators plus the type `type`.
    package func registering(_ type: String, _ factory: @escaping Factory) -> AuthDataValidators {
        var copy = self
        copy.factories[type] = factory
        return copy
    }

    /// The validator for `platform` in `app`.
    ///
    /// - Throws: 208 when the platform is not configured for the app, or its settings are unusable.
    package func validator(platform: String, app: App) throws -> any AuthDataValidator {
        guard case .object(let settings)? = app.authProviders[platform] else {
            throw BmobAPIError(.authDataError, "third-party login with '\(platform)' is not configured for this app")
        }
        guard let type = settings["type"]?.stringValue, let factory = factories[type] else {
            throw BmobAPIError(.authDataError, "authProviders.\(platform) has an unknown type")
        }
        do {
            return try factory(settings)
        } catch {
            throw BmobAPIError(.authDataError, "authProviders.\(platform) is misconfigured: \(error)")
        }
    }
}
