import BmobWire

/// Which keys an operation needs, as the document's `security` states it (the schemes are
/// ``OpenAPISchemas/securitySchemes``).
package enum OpenAPIAccess: Sendable {
    /// No keys (`/1/openapi.json`, links from mails): `security: []`.
    case open
    /// Works without keys, and says more with an app's keys (`/1/serverInfo`).
    case openOrApp
    /// An app's id with its REST key or Master Key; a session token adds a user.
    case app
    /// An app's id with its Master Key (schemas).
    case master

    /// The operation's `security` requirements: alternatives, each a set of schemes sent together.
    var requirements: JSONValue {
        let restKey: JSONValue = ["applicationId": [], "restKey": []]
        let session: JSONValue = ["applicationId": [], "restKey": [], "sessionToken": []]
        let masterKey: JSONValue = ["applicationId": [], "masterKey": []]
        switch self {
        case .open: return []
        case .openOrApp: return [[:], restKey, masterKey]
        case .app: return [restKey, session, masterKey]
        case .master: return [masterKey]
        }
    }

    /// Whether a request without (valid) keys is answered 401.
    var refusesWithoutKeys: Bool {
        switch self {
        case .open, .openOrApp: false
        case .app, .master: true
        }
    }
}
