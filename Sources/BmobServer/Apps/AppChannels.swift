package import BmobWire
import BmobCrypto

/// An app's realtime channels (the Pusher protocol): the numeric app id and key its clients and server libraries
/// name it by, the secret that signs channel authorizations and HTTP API calls, and whether subscribers may send
/// client events. `bmob apps create` makes them (`apps.json`: `"channels": {"appId", "key", "secret",
/// "clientEvents"}`); `bmob apps channels` shows or changes them.
package struct AppChannels: Sendable, Equatable {
    /// Digits only: Pusher's server libraries refuse anything else.
    package var appId: String
    /// Public: shipped in client code, it names the app on `/app/{key}`.
    package var key: String
    /// Signs private and presence channel authorizations, signins and HTTP API calls.
    package var secret: String
    /// Whether members of private and presence channels may publish `client-` events to each other.
    package var clientEvents: Bool
    /// Who the built-in authorization endpoint lets into which private and presence channels; `nil` for
    /// ``ChannelRule/defaults``.
    package var rules: [ChannelRule]?
    /// Where channel webhooks go (channel occupied and vacated, member added and removed, client events), signed as
    /// Pusher signs them; `nil` for none.
    package var webhookURL: String?
    /// Whether every connection must sign in (`{prefix}:signin`) within
    /// ``PusherGateway/signinTimeoutSeconds`` of opening, or be closed with 4009 — Pusher's "authorized
    /// connections" setting.
    package var authorizedConnections: Bool
    /// Whether public and private channels tell their subscribers how many connections they have
    /// (`{prefix}_internal:subscription_count`) whenever the number changes.
    package var subscriptionCount: Bool

    /// The rules in force.
    package var effectiveRules: [ChannelRule] { rules ?? ChannelRule.defaults }

    /// Credentials from their parts.
    package init(appId: String, key: String, secret: String, clientEvents: Bool = false) {
        self.appId = appId
        self.key = key
        self.secret = secret
        self.clientEvents = clientEvents
        self.rules = nil
        self.webhookURL = nil
        self.authorizedConnections = false
        self.subscriptionCount = false
    }

    /// Fresh random credentials: a 9-digit app id, a 20-character key and secret.
    package static func make() -> AppChannels {
        let digits = SecureRandom.bytes(9).map { String($0 % 10) }.joined()
        let appId = digits.first == "0" ? "1" + digits.dropFirst() : digits
        return AppChannels(
            appId: appId, key: SecureRandom.hex(byteCount: 10), secret: SecureRandom.hex(byteCount: 10))
    }

    /// Checks the parts: an app id of 1–20 digits, a key and a secret of 8–128 visible ASCII characters without
    /// `:` (an authorization is `key:signature`).
    package func validate() throws(ConfigurationError) {
        guard !appId.isEmpty, appId.utf8.count <= 20, appId.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw ConfigurationError("channels-app-id: expected 1 to 20 digits")
        }
        if let webhookURL {
            guard webhookURL.hasPrefix("http://") || webhookURL.hasPrefix("https://"), webhookURL.utf8.count <= 2048 else {
                throw ConfigurationError("channels webhook: expected an http:// or https:// URL")
            }
        }
        for (value, name) in [(key, "channels-key"), (secret, "channels-secret")] {
            guard (8...128).contains(value.utf8.count),
                value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") })
            else { throw ConfigurationError("\(name): expected 8 to 128 visible ASCII characters without ':'") }
        }
    }

    /// As stored in `apps.json` and printed by `bmob apps`.
    package var json: JSONValue {
        var members: [String: JSONValue] = [
            "appId": .string(appId), "key": .string(key), "secret": .string(secret), "clientEvents": .bool(clientEvents),
        ]
        if let rules { members["rules"] = .array(rules.map(\.json)) }
        if let webhookURL { members["webhookURL"] = .string(webhookURL) }
        if authorizedConnections { members["authorizedConnections"] = .bool(true) }
        if subscriptionCount { members["subscriptionCount"] = .bool(true) }
        return .object(members)
    }

    /// Reads ``json``; `nil` for an app made before channels existed (it gets credentials with
    /// `bmob apps channels --create`).
    ///
    /// - Throws: ``ConfigurationError`` for missing or invalid parts.
    package static func read(_ json: JSONValue?) throws(ConfigurationError) -> AppChannels? {
        guard let json, !json.isNull else { return nil }
        guard let appId = json["appId"]?.stringValue, let key = json["key"]?.stringValue,
            let secret = json["secret"]?.stringValue
        else { throw ConfigurationError("channels: expected appId, key and secret") }
        var channels = AppChannels(
            appId: appId, key: key, secret: secret, clientEvents: json["clientEvents"]?.boolValue ?? false)
        if let rules = json["rules"], !rules.isNull {
            guard let list = rules.arrayValue, list.count <= 100 else {
                throw ConfigurationError("channels.rules: expected an array of at most 100 rules")
            }
            var read: [ChannelRule] = []
            for rule in list { read.append(try ChannelRule(json: rule)) }
            channels.rules = read
        }
        if let url = json["webhookURL"], !url.isNull { channels.webhookURL = url.stringValue }
        channels.authorizedConnections = json["authorizedConnections"]?.boolValue ?? false
        channels.subscriptionCount = json["subscriptionCount"]?.boolValue ?? false
        try channels.validate()
        return channels
    }
}
