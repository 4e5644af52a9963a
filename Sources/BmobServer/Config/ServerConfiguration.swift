package import BmobStore
import BmobWire

/// Everything `bmob serve` can be told, with its defaults.
///
/// Sources, lowest precedence first: defaults, the JSON config file (`--config` / `BMOB_CONFIG`), environment
/// variables (`BMOB_*`), command-line flags. ``ServerConfiguration/settings`` lists each setting once with
/// its three names.
package struct ServerConfiguration: Sendable, Equatable {
    package var host = "127.0.0.1"
    package var port = 8080
    /// Folder holding `apps.json` and each app's database.
    package var dataDirectory = "./.bmob"
    /// The server's public base URL, announced to native clients (`/8/init`); defaults to the listen address.
    package var publicURL: String?
    /// Event loops; `nil` means one per core.
    package var loops: Int?
    package var maxConnections = 10_000
    /// Open connections at most from one client address (IPv4 address, or IPv6 /64), WebSockets included.
    /// A tenth of ``maxConnections``: one client (or a NAT gateway) gets room for a busy page's or app's
    /// connections, while ten such clients are needed to fill the server.
    package var maxConnectionsPerAddress = 1000
    package var maxBodyBytes = 10 * 1024 * 1024
    package var maxHeaderBytes = 16 * 1024
    package var headerTimeoutSeconds = 10.0
    package var bodyTimeoutSeconds = 30.0
    package var idleTimeoutSeconds = 60.0
    package var shutdownGraceSeconds = 10.0
    package var logLevel = LogLevel.info
    /// How log lines look: text (default) or JSON lines.
    package var logFormat = LogFormat.text
    /// Whether every answered request gets an access-log line (on by default).
    package var accessLog = true
    /// The bearer token `GET /metrics` requires on the main port; `nil` leaves the endpoint off there.
    package var metricsToken: String?
    /// A second port serving only `/metrics` and `/health`, without a token, on ``adminHost``; `nil`: none.
    package var adminPort: Int?
    /// The address of the admin port (default 127.0.0.1: only this machine can scrape it).
    package var adminHost = "127.0.0.1"
    /// A file whose first line is the web console's admin password (``ConsoleAdmin``), which lists every app
    /// with its keys; `nil`: the console signs in with an app's id and master key only.
    package var consolePasswordFile: String?
    /// The database engine of the apps' data and its settings (the `database` setting): SQLite files in the data
    /// folder by default, whose durability the `sqliteSynchronous` setting chooses (`normal` survives a process
    /// crash, `full` also a power loss, with slower commits); or one PostgreSQL database for several server nodes
    /// (`database: postgres://…`), a schema per app.
    package var storage = StorageConfiguration.sqlite()
    /// On PostgreSQL, where each app's journal listener connects (`LISTEN` needs a session, which a
    /// transaction-mode pooler does not keep); `nil` uses the `database` URL.
    package var databaseListenURL: String?
    /// SMTP server for the server's mail (password resets, email verification); `nil` keeps mail in the
    /// development outbox (`<data>/outbox/<applicationId>.jsonl`). Plain SMTP only, no TLS.
    package var smtpHost: String?
    /// SMTP port (default 25).
    package var smtpPort = 25
    /// SMTP user for `AUTH PLAIN`; `nil` sends without authenticating.
    package var smtpUser: String?
    /// SMTP password for ``smtpUser``.
    package var smtpPassword: String?
    /// Sender address of the server's mail (default `no-reply@<smtpHost>`).
    package var mailFrom: String?
    /// How long a login session lasts, in seconds (Bmob: 7 days).
    package var sessionLifetimeSeconds = 7 * 24 * 3600
    /// How often the realtime gateway sends socket.io heartbeats, in seconds (socket.io 0.9: 25).
    package var realtimeHeartbeatSeconds = 25
    /// Seconds without any packet from a realtime client after which the gateway drops it; announced in
    /// the socket.io handshake (socket.io 0.9: 60).
    package var realtimeTimeoutSeconds = 60
    /// Outbound bytes a realtime client may leave unread before the gateway closes it (1008), so that a
    /// stalled client cannot grow the server's memory.
    package var realtimeMaxQueuedBytes = 1 << 20
    /// How failed logins slow further attempts, and how many signups, SMS codes and emailed links one client
    /// address and one app may ask for (settings `login…`, `signupsPerClientPerHour`, `smsCodesPer…`,
    /// `emailRequestsPer…`).
    package var accountLimits = AccountLimits()
    /// Realtime handshake ids (`GET /socket.io/1/`) one client address may hold unused at once; more
    /// handshakes are answered 503. Clients open their WebSocket right after the handshake, so a few suffice.
    package var realtimeMaxHandshakesPerAddress = 32
    /// Seconds a realtime handshake id stays usable before its WebSocket must be opened. socket.io 0.9
    /// clients open it right after the handshake; a short lifetime frees ids that are never used.
    package var realtimeHandshakeLifetimeSeconds = 10
    /// Realtime connections at most with subscriptions of one app; a subscription that would exceed it is
    /// refused with an error packet. An app's key is public, so this keeps one app's subscribers (or
    /// someone using its key) from taking every realtime connection of a server that hosts several apps.
    package var realtimeMaxSessionsPerApp = 5000
    /// Steps one `$regex` (or BQL `regexp`) evaluation may take on one value before its query is refused
    /// with 102: about one per live automaton thread per character, so a simple pattern over a 1 MB value
    /// takes a few million.
    package var maxRegexSteps = StoreWorkLimits.defaultRegexSteps
    /// Steps one query may take (the engine's instructions plus `$regex` steps, over its find, count and
    /// sub-queries) before it is refused with 102 and its reader freed.
    package var maxQueryWork = StoreWorkLimits.defaultQueryWork
    /// Uploads and downloads: thresholds, limits, the file base URL, credentials' lifetime.
    package var files = FileSettings()
    /// Whether `POST /1/functions/<name>` hands a function every parameter as a string, as the encrypted door
    /// always does (Bmob's rule there); by default REST parameters keep their JSON types.
    package var functionParamsAsStrings = false
    /// How long a webhook call may take, in seconds.
    package var webhookTimeoutSeconds: Double = 10
    /// Most webhook calls in flight at once, for the whole server.
    package var webhookConcurrency = 32
    /// The least time between two prunings of an app's history (its retention, ``App/history``), in seconds.
    package var historyPruneIntervalSeconds = 600
    /// How old a journal entry must be before an app's retention may prune it, in seconds: realtime feeds and
    /// other nodes read entries moments after their commit.
    package var historyPruneGraceSeconds = 600
    /// On PostgreSQL, how old a server node's channel heartbeat may grow before the other nodes declare it dead and
    /// remove its channel connections (announcing the presence members who left with them), in seconds.
    package var channelNodeTimeoutSeconds = 30

    package init() {}

    /// One setting: its key in the JSON file, its environment variable, its flag, and how to apply a value.
    package struct Setting: Sendable {
        package var key: String
        package var environment: String
        package var flag: String
        package var help: String
        package var apply: @Sendable (inout ServerConfiguration, String) throws(ConfigurationError) -> Void
    }

    package static let settings: [Setting] = [
        Setting(key: "host", environment: "BMOB_HOST", flag: "--host", help: "address to listen on (default 127.0.0.1)") { config, value throws(ConfigurationError) in
            config.host = value
        },
        Setting(key: "port", environment: "BMOB_PORT", flag: "--port", help: "port to listen on (default 8080; 0 picks one)") { config, value throws(ConfigurationError) in
            config.port = try integer(value, key: "port", range: 0...65535)
        },
        Setting(key: "data", environment: "BMOB_DATA", flag: "--data", help: "data folder (default ./.bmob)") { config, value throws(ConfigurationError) in
            guard !value.isEmpty else { throw ConfigurationError("data: the folder must not be empty") }
            config.dataDirectory = value
        },
        Setting(key: "publicURL", environment: "BMOB_PUBLIC_URL", flag: "--public-url", help: "public base URL given to clients") { config, value throws(ConfigurationError) in
            guard value.hasPrefix("http://") || value.hasPrefix("https://") else {
                throw ConfigurationError("publicURL: expected an http:// or https:// URL, got '\(value)'")
            }
            config.publicURL = value.hasSuffix("/") ? String(value.dropLast()) : value
        },
        Setting(key: "loops", environment: "BMOB_LOOPS", flag: "--loops", help: "event loops (default: one per core)") { config, value throws(ConfigurationError) in
            config.loops = try integer(value, key: "loops", range: 1...1024)
        },
        Setting(key: "maxConnections", environment: "BMOB_MAX_CONNECTIONS", flag: "--max-connections", help: "open connections at most (default 10000)") { config, value throws(ConfigurationError) in
            config.maxConnections = try integer(value, key: "maxConnections", range: 1...1_000_000)
        },
        Setting(key: "maxConnectionsPerAddress", environment: "BMOB_MAX_CONNECTIONS_PER_ADDRESS", flag: "--max-connections-per-address", help: "open connections at most from one client address (default 1000)") { config, value throws(ConfigurationError) in
            config.maxConnectionsPerAddress = try integer(value, key: "maxConnectionsPerAddress", range: 1...1_000_000)
        },
        Setting(key: "maxBodyBytes", environment: "BMOB_MAX_BODY_BYTES", flag: "--max-body-bytes", help: "default request body limit (default 10 MiB)") { config, value throws(ConfigurationError) in
            config.maxBodyBytes = try integer(value, key: "maxBodyBytes", range: 0...(1 << 40))
        },
        Setting(key: "maxHeaderBytes", environment: "BMOB_MAX_HEADER_BYTES", flag: "--max-header-bytes", help: "request line and headers limit (default 16 KiB)") { config, value throws(ConfigurationError) in
            config.maxHeaderBytes = try integer(value, key: "maxHeaderBytes", range: 256...(1 << 24))
        },
        Setting(key: "headerTimeout", environment: "BMOB_HEADER_TIMEOUT", flag: "--header-timeout", help: "seconds to receive request headers (default 10)") { config, value throws(ConfigurationError) in
            config.headerTimeoutSeconds = try seconds(value, key: "headerTimeout")
        },
        Setting(key: "bodyTimeout", environment: "BMOB_BODY_TIMEOUT", flag: "--body-timeout", help: "seconds between body pieces (default 30)") { config, value throws(ConfigurationError) in
            config.bodyTimeoutSeconds = try seconds(value, key: "bodyTimeout")
        },
        Setting(key: "idleTimeout", environment: "BMOB_IDLE_TIMEOUT", flag: "--idle-timeout", help: "seconds a keep-alive connection may idle (default 60)") { config, value throws(ConfigurationError) in
            config.idleTimeoutSeconds = try seconds(value, key: "idleTimeout")
        },
        Setting(key: "shutdownGrace", environment: "BMOB_SHUTDOWN_GRACE", flag: "--shutdown-grace", help: "seconds to finish requests on shutdown (default 10)") { config, value throws(ConfigurationError) in
            config.shutdownGraceSeconds = try seconds(value, key: "shutdownGrace")
        },
        Setting(key: "logLevel", environment: "BMOB_LOG_LEVEL", flag: "--log-level", help: "trace, debug, info, notice, warning, error (default info)") { config, value throws(ConfigurationError) in
            guard let level = LogLevel(name: value) else { throw ConfigurationError("logLevel: unknown level '\(value)'") }
            config.logLevel = level
        },
        Setting(key: "logFormat", environment: "BMOB_LOG_FORMAT", flag: "--log-format", help: "text or json (one JSON object per line; default text)") { config, value throws(ConfigurationError) in
            guard let format = LogFormat(rawValue: value.lowercased()) else {
                throw ConfigurationError("logFormat: expected text or json, got '\(value)'")
            }
            config.logFormat = format
        },
        Setting(key: "accessLog", environment: "BMOB_ACCESS_LOG", flag: "--access-log", help: "on or off: a log line per request (default on)") { config, value throws(ConfigurationError) in
            switch value.lowercased() {
            case "on", "true", "1", "yes": config.accessLog = true
            case "off", "false", "0", "no": config.accessLog = false
            default: throw ConfigurationError("accessLog: expected on or off, got '\(value)'")
            }
        },
        Setting(key: "metricsToken", environment: "BMOB_METRICS_TOKEN", flag: "--metrics-token", help: "bearer token for GET /metrics on the main port (default: /metrics off there)") { config, value throws(ConfigurationError) in
            guard value.utf8.count >= 16, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw ConfigurationError("metricsToken: use at least 16 printable characters without spaces")
            }
            config.metricsToken = value
        },
        Setting(key: "adminPort", environment: "BMOB_ADMIN_PORT", flag: "--admin-port", help: "a second port serving /metrics and /health without a token (default: none)") { config, value throws(ConfigurationError) in
            config.adminPort = try integer(value, key: "adminPort", range: 0...65535)
        },
        Setting(key: "adminHost", environment: "BMOB_ADMIN_HOST", flag: "--admin-host", help: "address of the admin port (default 127.0.0.1)") { config, value throws(ConfigurationError) in
            config.adminHost = value
        },
        Setting(key: "consolePasswordFile", environment: "BMOB_CONSOLE_PASSWORD_FILE", flag: "--console-password-file", help: "a file whose first line (12 characters or more) is the /console admin password, which lists every app (default: sign in with an app's master key)") { config, value throws(ConfigurationError) in
            guard !value.isEmpty else { throw ConfigurationError("consolePasswordFile: expected a file path") }
            config.consolePasswordFile = value
        },
        Setting(key: "database", environment: "BMOB_DATABASE", flag: "--database", help: "sqlite (default: a file per app in the data folder) or a postgres:// URL for several nodes") { config, value throws(ConfigurationError) in
            if value == "sqlite" {
                if case .postgres = config.storage { config.storage = .sqlite() }
                return
            }
            guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
                // The value may hold a password: the message does not repeat it.
                throw ConfigurationError("database: expected 'sqlite' or a postgres:// URL")
            }
            config.storage = .postgres(url: value)
        },
        Setting(key: "databaseListen", environment: "BMOB_DATABASE_LISTEN", flag: "--database-listen", help: "a postgres:// URL straight to PostgreSQL for the journal listeners, when --database goes through a transaction-mode pooler (default: --database)") { config, value throws(ConfigurationError) in
            guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
                throw ConfigurationError("databaseListen: expected a postgres:// URL")
            }
            config.databaseListenURL = value
        },
        Setting(key: "sqliteSynchronous", environment: "BMOB_SQLITE_SYNCHRONOUS", flag: "--sqlite-synchronous", help: "normal (survives a crash) or full (survives power loss)") { config, value throws(ConfigurationError) in
            guard value == "normal" || value == "full" else {
                throw ConfigurationError("sqliteSynchronous: expected 'normal' or 'full', got '\(value)'")
            }
            config.storage.setSQLiteSynchronous(value == "full" ? .full : .normal)
        },
        Setting(key: "smtpHost", environment: "BMOB_SMTP_HOST", flag: "--smtp-host", help: "SMTP server for mail, no TLS (default: mail goes to <data>/outbox)") { config, value throws(ConfigurationError) in
            config.smtpHost = value.isEmpty ? nil : value
        },
        Setting(key: "sessionLifetimeSeconds", environment: "BMOB_SESSION_LIFETIME_SECONDS", flag: "--session-lifetime-seconds", help: "how long a login session lasts (default 604800, 7 days)") { config, value throws(ConfigurationError) in
            config.sessionLifetimeSeconds = try integer(value, key: "sessionLifetimeSeconds", range: 60...(10 * 365 * 24 * 3600))
        },
        Setting(key: "realtimeHeartbeatSeconds", environment: "BMOB_REALTIME_HEARTBEAT_SECONDS", flag: "--realtime-heartbeat-seconds", help: "socket.io heartbeat interval (default 25)") { config, value throws(ConfigurationError) in
            config.realtimeHeartbeatSeconds = try integer(value, key: "realtimeHeartbeatSeconds", range: 1...3600)
        },
        Setting(key: "realtimeTimeoutSeconds", environment: "BMOB_REALTIME_TIMEOUT_SECONDS", flag: "--realtime-timeout-seconds", help: "drop realtime clients silent this long (default 60)") { config, value throws(ConfigurationError) in
            config.realtimeTimeoutSeconds = try integer(value, key: "realtimeTimeoutSeconds", range: 2...86_400)
        },
        Setting(key: "realtimeMaxQueuedBytes", environment: "BMOB_REALTIME_MAX_QUEUED_BYTES", flag: "--realtime-max-queued-bytes", help: "unread output per realtime client before it is closed (default 1 MiB)") { config, value throws(ConfigurationError) in
            config.realtimeMaxQueuedBytes = try integer(value, key: "realtimeMaxQueuedBytes", range: 4096...(1 << 30))
        },
        Setting(key: "realtimeMaxHandshakesPerAddress", environment: "BMOB_REALTIME_MAX_HANDSHAKES_PER_ADDRESS", flag: "--realtime-max-handshakes-per-address", help: "unused realtime handshake ids per client address (default 32)") { config, value throws(ConfigurationError) in
            config.realtimeMaxHandshakesPerAddress = try integer(value, key: "realtimeMaxHandshakesPerAddress", range: 1...100_000)
        },
        Setting(key: "realtimeHandshakeLifetimeSeconds", environment: "BMOB_REALTIME_HANDSHAKE_LIFETIME_SECONDS", flag: "--realtime-handshake-lifetime-seconds", help: "seconds a realtime handshake id stays usable (default 10)") { config, value throws(ConfigurationError) in
            config.realtimeHandshakeLifetimeSeconds = try integer(value, key: "realtimeHandshakeLifetimeSeconds", range: 1...3600)
        },
        Setting(key: "realtimeMaxSessionsPerApp", environment: "BMOB_REALTIME_MAX_SESSIONS_PER_APP", flag: "--realtime-max-sessions-per-app", help: "realtime connections subscribed to one app (default 5000)") { config, value throws(ConfigurationError) in
            config.realtimeMaxSessionsPerApp = try integer(value, key: "realtimeMaxSessionsPerApp", range: 1...1_000_000)
        },
        Setting(key: "maxRegexSteps", environment: "BMOB_MAX_REGEX_STEPS", flag: "--max-regex-steps", help: "steps one $regex may take on one value before its query is refused (default 100000000)") { config, value throws(ConfigurationError) in
            config.maxRegexSteps = try integer(value, key: "maxRegexSteps", range: 1000...(1 << 62))
        },
        Setting(key: "maxQueryWork", environment: "BMOB_MAX_QUERY_WORK", flag: "--max-query-work", help: "steps (SQLite instructions and $regex steps) one query may take before it is refused (default 1000000000)") { config, value throws(ConfigurationError) in
            config.maxQueryWork = try integer(value, key: "maxQueryWork", range: 1000...(1 << 62))
        },
        Setting(key: "smtpPort", environment: "BMOB_SMTP_PORT", flag: "--smtp-port", help: "SMTP port (default 25)") { config, value throws(ConfigurationError) in
            config.smtpPort = try integer(value, key: "smtpPort", range: 1...65535)
        },
        Setting(key: "smtpUser", environment: "BMOB_SMTP_USER", flag: "--smtp-user", help: "SMTP user for AUTH PLAIN (default: no authentication)") { config, value throws(ConfigurationError) in
            config.smtpUser = value.isEmpty ? nil : value
        },
        Setting(key: "smtpPassword", environment: "BMOB_SMTP_PASSWORD", flag: "--smtp-password", help: "SMTP password (prefer BMOB_SMTP_PASSWORD or the config file to the command line)") { config, value throws(ConfigurationError) in
            config.smtpPassword = value
        },
        Setting(key: "mailFrom", environment: "BMOB_MAIL_FROM", flag: "--mail-from", help: "sender address of mail (default no-reply@<smtpHost>)") { config, value throws(ConfigurationError) in
            guard value.contains("@"), !value.unicodeScalars.contains(where: { "\r\n<> ".unicodeScalars.contains($0) }) else {
                throw ConfigurationError("mailFrom: expected a plain email address, got '\(value)'")
            }
            config.mailFrom = value
        },
        Setting(key: "loginFreeFailures", environment: "BMOB_LOGIN_FREE_FAILURES", flag: "--login-free-failures", help: "failed logins per account and address before each further one waits, doubling (default 5)") { config, value throws(ConfigurationError) in
            config.accountLimits.loginFreeFailures = try integer(value, key: "loginFreeFailures", range: 1...1000)
        },
        Setting(key: "loginClientFreeFailures", environment: "BMOB_LOGIN_CLIENT_FREE_FAILURES", flag: "--login-client-free-failures", help: "failed logins per address, any account, before its attempts wait (default 50)") { config, value throws(ConfigurationError) in
            config.accountLimits.loginClientFreeFailures = try integer(value, key: "loginClientFreeFailures", range: 1...1_000_000)
        },
        Setting(key: "loginAccountFreeFailures", environment: "BMOB_LOGIN_ACCOUNT_FREE_FAILURES", flag: "--login-account-free-failures", help: "failed logins per account, any address, before new addresses wait (default 20)") { config, value throws(ConfigurationError) in
            config.accountLimits.loginAccountFreeFailures = try integer(value, key: "loginAccountFreeFailures", range: 1...1_000_000)
        },
        Setting(key: "loginMaxDelaySeconds", environment: "BMOB_LOGIN_MAX_DELAY_SECONDS", flag: "--login-max-delay-seconds", help: "longest wait per account and address, and per address (default 900)") { config, value throws(ConfigurationError) in
            config.accountLimits.loginMaxDelaySeconds = try integer(value, key: "loginMaxDelaySeconds", range: 1...86_400)
        },
        Setting(key: "loginAccountMaxDelaySeconds", environment: "BMOB_LOGIN_ACCOUNT_MAX_DELAY_SECONDS", flag: "--login-account-max-delay-seconds", help: "longest wait of the per-account guard (default 60)") { config, value throws(ConfigurationError) in
            config.accountLimits.loginAccountMaxDelaySeconds = try integer(value, key: "loginAccountMaxDelaySeconds", range: 1...86_400)
        },
        Setting(key: "loginFailureWindowSeconds", environment: "BMOB_LOGIN_FAILURE_WINDOW_SECONDS", flag: "--login-failure-window-seconds", help: "how long a failed login counts, at most a day (default 86400)") { config, value throws(ConfigurationError) in
            config.accountLimits.loginFailureWindowSeconds = try integer(value, key: "loginFailureWindowSeconds", range: 60...86_400)
        },
        Setting(key: "signupsPerClientPerHour", environment: "BMOB_SIGNUPS_PER_CLIENT_PER_HOUR", flag: "--signups-per-client-per-hour", help: "password signups per client address per hour (default 30)") { config, value throws(ConfigurationError) in
            config.accountLimits.signupsPerClientPerHour = try integer(value, key: "signupsPerClientPerHour", range: 1...1_000_000)
        },
        Setting(key: "smsCodesPerClientPerHour", environment: "BMOB_SMS_CODES_PER_CLIENT_PER_HOUR", flag: "--sms-codes-per-client-per-hour", help: "SMS codes per client address per hour (default 20)") { config, value throws(ConfigurationError) in
            config.accountLimits.smsCodesPerClientPerHour = try integer(value, key: "smsCodesPerClientPerHour", range: 1...1_000_000)
        },
        Setting(key: "smsCodesPerAppPerHour", environment: "BMOB_SMS_CODES_PER_APP_PER_HOUR", flag: "--sms-codes-per-app-per-hour", help: "SMS codes per app per hour (default 1000)") { config, value throws(ConfigurationError) in
            config.accountLimits.smsCodesPerAppPerHour = try integer(value, key: "smsCodesPerAppPerHour", range: 1...10_000_000)
        },
        Setting(key: "emailRequestsPerClientPerHour", environment: "BMOB_EMAIL_REQUESTS_PER_CLIENT_PER_HOUR", flag: "--email-requests-per-client-per-hour", help: "password-reset and verification mails per client address per hour (default 20)") { config, value throws(ConfigurationError) in
            config.accountLimits.emailRequestsPerClientPerHour = try integer(value, key: "emailRequestsPerClientPerHour", range: 1...1_000_000)
        },
        Setting(key: "emailRequestsPerAppPerHour", environment: "BMOB_EMAIL_REQUESTS_PER_APP_PER_HOUR", flag: "--email-requests-per-app-per-hour", help: "password-reset and verification mails per app per hour (default 1000)") { config, value throws(ConfigurationError) in
            config.accountLimits.emailRequestsPerAppPerHour = try integer(value, key: "emailRequestsPerAppPerHour", range: 1...10_000_000)
        },
        Setting(key: "uploadThreshold", environment: "BMOB_UPLOAD_THRESHOLD", flag: "--upload-threshold", help: "bytes from which files are uploaded in parts (default 10485760)") { config, value throws(ConfigurationError) in
            config.files.uploadThreshold = try integer(value, key: "uploadThreshold", range: 1...(1 << 40))
        },
        Setting(key: "maxSmallFileBytes", environment: "BMOB_MAX_SMALL_FILE_BYTES", flag: "--max-small-file-bytes", help: "largest file uploaded in one request (default 10 MiB)") { config, value throws(ConfigurationError) in
            config.files.maximumSmallFileBytes = try integer(value, key: "maxSmallFileBytes", range: 1...(1 << 30))
        },
        Setting(key: "maxFileBytes", environment: "BMOB_MAX_FILE_BYTES", flag: "--max-file-bytes", help: "largest file uploaded in parts (default 5 GiB)") { config, value throws(ConfigurationError) in
            config.files.maximumFileBytes = try integer(value, key: "maxFileBytes", range: 1...(1 << 42))
        },
        Setting(key: "uploadPartBytes", environment: "BMOB_UPLOAD_PART_BYTES", flag: "--upload-part-bytes", help: "part size of multipart uploads (default 8 MiB)") { config, value throws(ConfigurationError) in
            config.files.partBytes = try integer(value, key: "uploadPartBytes", range: 65_536...(1 << 32))
        },
        Setting(key: "filesURL", environment: "BMOB_FILES_URL", flag: "--files-url", help: "base URL of file URLs (default: the public URL)") { config, value throws(ConfigurationError) in
            guard value.hasPrefix("http://") || value.hasPrefix("https://") else {
                throw ConfigurationError("filesURL: expected an http:// or https:// URL, got '\(value)'")
            }
            config.files.baseURL = value.hasSuffix("/") ? String(value.dropLast()) : value
        },
        Setting(key: "uploadCredentialSeconds", environment: "BMOB_UPLOAD_CREDENTIAL_SECONDS", flag: "--upload-credential-seconds", help: "lifetime of an upload's credentials (default 900)") { config, value throws(ConfigurationError) in
            config.files.credentialSeconds = try integer(value, key: "uploadCredentialSeconds", range: 60...43_200)
        },
        Setting(key: "uploadExpirySeconds", environment: "BMOB_UPLOAD_EXPIRY_SECONDS", flag: "--upload-expiry-seconds", help: "how long an unfinished upload is kept (default 86400)") { config, value throws(ConfigurationError) in
            config.files.uploadExpirySeconds = try integer(value, key: "uploadExpirySeconds", range: 60...(86_400 * 365))
        },
        Setting(key: "functionParamsAsStrings", environment: "BMOB_FUNCTION_PARAMS_AS_STRINGS", flag: "--function-params-as-strings", help: "REST cloud function calls get every parameter as a string, as encrypted calls do (default false)") { config, value throws(ConfigurationError) in
            switch value.trimmingSpaces().lowercased() {
            case "true", "1", "yes": config.functionParamsAsStrings = true
            case "false", "0", "no": config.functionParamsAsStrings = false
            default: throw ConfigurationError("functionParamsAsStrings: expected true or false, got '\(value)'")
            }
        },
        Setting(key: "webhookTimeoutSeconds", environment: "BMOB_WEBHOOK_TIMEOUT_SECONDS", flag: "--webhook-timeout-seconds", help: "how long a webhook call may take (default 10)") { config, value throws(ConfigurationError) in
            config.webhookTimeoutSeconds = Double(try integer(value, key: "webhookTimeoutSeconds", range: 1...300))
        },
        Setting(key: "webhookConcurrency", environment: "BMOB_WEBHOOK_CONCURRENCY", flag: "--webhook-concurrency", help: "most webhook calls in flight at once (default 32)") { config, value throws(ConfigurationError) in
            config.webhookConcurrency = try integer(value, key: "webhookConcurrency", range: 1...10_000)
        },
        Setting(key: "historyPruneIntervalSeconds", environment: "BMOB_HISTORY_PRUNE_INTERVAL_SECONDS", flag: "--history-prune-interval-seconds", help: "least time between two prunings of an app's history by its retention (default 600)") { config, value throws(ConfigurationError) in
            config.historyPruneIntervalSeconds = try integer(value, key: "historyPruneIntervalSeconds", range: 0...86_400 * 365)
        },
        Setting(key: "historyPruneGraceSeconds", environment: "BMOB_HISTORY_PRUNE_GRACE_SECONDS", flag: "--history-prune-grace-seconds", help: "how old a change must be before retention may prune it (default 600)") { config, value throws(ConfigurationError) in
            config.historyPruneGraceSeconds = try integer(value, key: "historyPruneGraceSeconds", range: 0...86_400 * 365)
        },
        Setting(key: "channelNodeTimeoutSeconds", environment: "BMOB_CHANNEL_NODE_TIMEOUT_SECONDS", flag: "--channel-node-timeout-seconds", help: "on PostgreSQL, seconds after which a silent server node's channel connections and presence members are removed (default 30)") { config, value throws(ConfigurationError) in
            config.channelNodeTimeoutSeconds = try integer(value, key: "channelNodeTimeoutSeconds", range: 1...3600)
        },
        Setting(key: "fileDownloads", environment: "BMOB_FILE_DOWNLOADS", flag: "--file-downloads", help: "public (default): a file's URL serves it; signed: only URLs signed by POST /2/signedFileURLs do") { config, value throws(ConfigurationError) in
            switch value.trimmingSpaces() {
            case "public": config.files.signedDownloads = false
            case "signed": config.files.signedDownloads = true
            default: throw ConfigurationError("fileDownloads: expected public or signed, got '\(value)'")
            }
        },
        Setting(key: "signedURLSeconds", environment: "BMOB_SIGNED_URL_SECONDS", flag: "--signed-url-seconds", help: "lifetime of a signed file URL whose request names none (default 3600)") { config, value throws(ConfigurationError) in
            config.files.signedURLSeconds = try integer(value, key: "signedURLSeconds", range: 1...(7 * 86_400))
        },
        Setting(key: "s3Endpoint", environment: "BMOB_S3_ENDPOINT", flag: "--s3-endpoint", help: "keep files in an S3-compatible bucket at this URL, such as https://s3.eu-west-1.amazonaws.com (default: the data folder)") { config, value throws(ConfigurationError) in
            config.files.s3Settings.endpoint = try s3URL(value, key: "s3Endpoint")
        },
        Setting(key: "s3Region", environment: "BMOB_S3_REGION", flag: "--s3-region", help: "the bucket's region (default us-east-1)") { config, value throws(ConfigurationError) in
            config.files.s3Settings.region = value.trimmingSpaces()
        },
        Setting(key: "s3Bucket", environment: "BMOB_S3_BUCKET", flag: "--s3-bucket", help: "the bucket files are kept in") { config, value throws(ConfigurationError) in
            config.files.s3Settings.bucket = value.trimmingSpaces()
        },
        Setting(key: "s3AccessKeyId", environment: "BMOB_S3_ACCESS_KEY_ID", flag: "--s3-access-key-id", help: "access key id for the bucket and its token service") { config, value throws(ConfigurationError) in
            config.files.s3Settings.accessKeyId = value.trimmingSpaces()
        },
        Setting(key: "s3SecretAccessKey", environment: "BMOB_S3_SECRET_ACCESS_KEY", flag: "--s3-secret-access-key", help: "secret of the access key (prefer BMOB_S3_SECRET_ACCESS_KEY or the config file to the command line)") { config, value throws(ConfigurationError) in
            config.files.s3Settings.secretAccessKey = value
        },
        Setting(key: "s3PathStyle", environment: "BMOB_S3_PATH_STYLE", flag: "--s3-path-style", help: "true: <endpoint>/<bucket>/<key> (MinIO); false: <bucket>.<endpoint host>/<key> (default true)") { config, value throws(ConfigurationError) in
            switch value.trimmingSpaces().lowercased() {
            case "true", "1", "yes": config.files.s3Settings.pathStyle = true
            case "false", "0", "no": config.files.s3Settings.pathStyle = false
            default: throw ConfigurationError("s3PathStyle: expected true or false, got '\(value)'")
            }
        },
        Setting(key: "s3StsEndpoint", environment: "BMOB_S3_STS_ENDPOINT", flag: "--s3-sts-endpoint", help: "security token service URL for upload credentials, such as https://sts.eu-west-1.amazonaws.com (default: the S3 endpoint)") { config, value throws(ConfigurationError) in
            config.files.s3Settings.stsEndpoint = try s3URL(value, key: "s3StsEndpoint")
        },
        Setting(key: "s3RoleArn", environment: "BMOB_S3_ROLE_ARN", flag: "--s3-role-arn", help: "role assumed for multipart uploads' credentials (default \(S3StorageConfiguration.placeholderRoleArn), enough for MinIO)") { config, value throws(ConfigurationError) in
            config.files.s3Settings.roleArn = value.trimmingSpaces()
        },
    ]

    /// An S3 or STS endpoint setting's URL, without a trailing `/`.
    private static func s3URL(_ text: String, key: String) throws(ConfigurationError) -> String {
        var value = text.trimmingSpaces()
        while value.hasSuffix("/") { value.removeLast() }
        guard S3Endpoint(value) != nil else {
            throw ConfigurationError("\(key): expected an http:// or https:// URL, got '\(text)'")
        }
        return value
    }

    private static func integer(_ text: String, key: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let value = Int(text.trimmingSpaces()), range.contains(value) else {
            throw ConfigurationError("\(key): expected a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    private static func seconds(_ text: String, key: String) throws(ConfigurationError) -> Double {
        guard let value = Double(text.trimmingSpaces()), value > 0, value <= 86_400 * 365 else {
            throw ConfigurationError("\(key): expected a positive number of seconds, got '\(text)'")
        }
        return value
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.host == rhs.host && lhs.port == rhs.port && lhs.dataDirectory == rhs.dataDirectory
            && lhs.publicURL == rhs.publicURL && lhs.loops == rhs.loops && lhs.maxConnections == rhs.maxConnections
            && lhs.maxConnectionsPerAddress == rhs.maxConnectionsPerAddress
            && lhs.maxBodyBytes == rhs.maxBodyBytes && lhs.maxHeaderBytes == rhs.maxHeaderBytes
            && lhs.headerTimeoutSeconds == rhs.headerTimeoutSeconds && lhs.bodyTimeoutSeconds == rhs.bodyTimeoutSeconds
            && lhs.idleTimeoutSeconds == rhs.idleTimeoutSeconds && lhs.shutdownGraceSeconds == rhs.shutdownGraceSeconds
            && lhs.logLevel == rhs.logLevel && lhs.logFormat == rhs.logFormat && lhs.accessLog == rhs.accessLog
            && lhs.metricsToken == rhs.metricsToken && lhs.adminPort == rhs.adminPort && lhs.adminHost == rhs.adminHost
            && lhs.consolePasswordFile == rhs.consolePasswordFile
            && lhs.storage == rhs.storage && lhs.databaseListenURL == rhs.databaseListenURL
            && lhs.smtpHost == rhs.smtpHost && lhs.smtpPort == rhs.smtpPort && lhs.smtpUser == rhs.smtpUser
            && lhs.smtpPassword == rhs.smtpPassword && lhs.mailFrom == rhs.mailFrom
            && lhs.sessionLifetimeSeconds == rhs.sessionLifetimeSeconds
            && lhs.realtimeHeartbeatSeconds == rhs.realtimeHeartbeatSeconds
            && lhs.realtimeTimeoutSeconds == rhs.realtimeTimeoutSeconds
            && lhs.realtimeMaxQueuedBytes == rhs.realtimeMaxQueuedBytes
            && lhs.accountLimits == rhs.accountLimits
            && lhs.realtimeMaxHandshakesPerAddress == rhs.realtimeMaxHandshakesPerAddress
            && lhs.realtimeHandshakeLifetimeSeconds == rhs.realtimeHandshakeLifetimeSeconds
            && lhs.realtimeMaxSessionsPerApp == rhs.realtimeMaxSessionsPerApp
            && lhs.maxRegexSteps == rhs.maxRegexSteps && lhs.maxQueryWork == rhs.maxQueryWork
            && lhs.files == rhs.files && lhs.functionParamsAsStrings == rhs.functionParamsAsStrings
            && lhs.webhookTimeoutSeconds == rhs.webhookTimeoutSeconds && lhs.webhookConcurrency == rhs.webhookConcurrency
            && lhs.historyPruneIntervalSeconds == rhs.historyPruneIntervalSeconds
            && lhs.historyPruneGraceSeconds == rhs.historyPruneGraceSeconds
            && lhs.channelNodeTimeoutSeconds == rhs.channelNodeTimeoutSeconds
    }
}
