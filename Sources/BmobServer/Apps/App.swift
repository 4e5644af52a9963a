package import BmobStore
package import BmobWire

/// One application hosted by the server, with its keys and settings.
///
/// Keys follow Bmob: the Application ID names the app on every request, the REST API Key authenticates REST
/// clients, the Master Key bypasses permissions, and the 16-character Secret Key keys the native `/8/`
/// protocol's encryption.
package struct App: Sendable, Equatable {
    package var name: String
    package var applicationId: String
    package var restKey: String
    package var masterKey: String
    package var secretKey: String
    /// UTC offset for the `datetime` of `/1/timestamp` (Bmob cloud answers in Beijing time, `+08:00`).
    package var timeZone: String {
        didSet { timeZoneOffsetSeconds = BmobDateFormat.parseOffset(timeZone) ?? 8 * 3600 }
    }
    /// UTC offset of `createdAt`, `updatedAt` and Date values in responses. Bmob documents these dates as UTC
    /// and the vendor SDK parses them as UTC, so the default is `+00:00`.
    package var dateTimeZone: String {
        didSet { dateOffsetSeconds = BmobDateFormat.parseOffset(dateTimeZone) ?? 0 }
    }
    /// When the app was created, seconds since 1970.
    package var createdAt: Int64
    /// Third-party login, per platform (`weixin`, `qq`, `weibo`, `apple`, …): the validator's settings, e.g.
    /// `{"type": "oidc", "issuer": …, "audience": …, "jwksURL": …}` or `{"type": "trust"}` (development only).
    /// A platform not listed cannot log in.
    package var authProviders: [String: JSONValue]
    /// Whether realtime events (socket.io `server_pub`) ignore object ACLs, as Bmob cloud's do. Off by
    /// default: socket.io subscribers are anonymous, so with this on, anyone who knows the Application ID
    /// receives every change of every table, including objects the public may not read. Class permissions
    /// still apply.
    package var realtimeIgnoresACL: Bool
    /// Who may create classes and roles, which `_User` fields stay private, and data size limits.
    package var security: AppSecurity
    /// Cloud functions and triggers served by HTTP endpoints.
    package var webhooks = AppWebhooks()
    /// How much change history the app keeps (``HistoryPruner``): everything by default.
    package var history = JournalRetention.all
    /// Realtime channel credentials (the Pusher protocol); `nil` for an app made before channels existed.
    package var channels: AppChannels?

    package init(
        name: String,
        applicationId: String,
        restKey: String,
        masterKey: String,
        secretKey: String,
        timeZone: String = "+08:00",
        dateTimeZone: String = "+00:00",
        createdAt: Int64,
        authProviders: [String: JSONValue] = [:],
        realtimeIgnoresACL: Bool = false,
        security: AppSecurity = AppSecurity()
    ) {
        self.security = security
        self.authProviders = authProviders
        self.realtimeIgnoresACL = realtimeIgnoresACL
        self.name = name
        self.applicationId = applicationId
        self.restKey = restKey
        self.masterKey = masterKey
        self.secretKey = secretKey
        self.timeZone = timeZone
        self.dateTimeZone = dateTimeZone
        self.timeZoneOffsetSeconds = BmobDateFormat.parseOffset(timeZone) ?? 8 * 3600
        self.dateOffsetSeconds = BmobDateFormat.parseOffset(dateTimeZone) ?? 0
        self.createdAt = createdAt
    }

    /// The `timeZone` setting in seconds east of UTC (+8 hours when the setting is unreadable); parsed when
    /// the setting changes, not per request.
    package private(set) var timeZoneOffsetSeconds: Int

    /// The `dateTimeZone` setting in seconds east of UTC (UTC when the setting is unreadable); parsed when
    /// the setting changes, not per request.
    package private(set) var dateOffsetSeconds: Int

    /// The app as stored in `apps.json` and printed by `bmob apps`.
    package var json: JSONValue {
        [
            "name": .string(name),
            "applicationId": .string(applicationId),
            "restKey": .string(restKey),
            "masterKey": .string(masterKey),
            "secretKey": .string(secretKey),
            "timeZone": .string(timeZone),
            "dateTimeZone": .string(dateTimeZone),
            "createdAt": .int(createdAt),
            "authProviders": .object(authProviders),
            "realtimeIgnoresACL": .bool(realtimeIgnoresACL),
            "security": security.json,
            "webhooks": webhooks.json,
            "history": history.json,
            "channels": channels?.json ?? .null,
        ]
    }

    /// Reads an app written by ``json``.
    package init(json: JSONValue) throws(ConfigurationError) {
        func string(_ key: String) throws(ConfigurationError) -> String {
            guard let value = json[key]?.stringValue, !value.isEmpty else {
                throw ConfigurationError("apps.json: an app has no '\(key)'")
            }
            return value
        }
        self.init(
            name: try string("name"),
            applicationId: try string("applicationId"),
            restKey: try string("restKey"),
            masterKey: try string("masterKey"),
            secretKey: try string("secretKey"),
            timeZone: json["timeZone"]?.stringValue ?? "+08:00",
            dateTimeZone: json["dateTimeZone"]?.stringValue ?? "+00:00",
            createdAt: json["createdAt"]?.int64Value ?? 0,
            authProviders: json["authProviders"]?.objectValue ?? [:],
            realtimeIgnoresACL: json["realtimeIgnoresACL"]?.boolValue ?? false,
            security: try AppSecurity(json: json["security"])
        )
        webhooks = try AppWebhooks(json: json["webhooks"])
        history = try JournalRetention(json: json["history"])
        channels = try AppChannels.read(json["channels"])
    }
}
