/// What re-reading the server's configuration (`SIGHUP`: the `--config` file, with the start's environment and
/// flags) can change in a running server.
///
/// Only `logLevel` applies at once. Every other setting is taken when the server starts (the listening socket, the
/// data folder, the database engine, the loops and connection limits, the services' timeouts and limits): a changed
/// value is named in ``needsRestart`` so that the server can say it waits for a restart.
package struct ConfigurationReload: Sendable {
    /// The new log level, when it changed.
    package var logLevel: LogLevel?
    /// The settings (keys of the config file) that differ but apply only after a restart; `other settings` stands
    /// for any not named one by one.
    package var needsRestart: [String] = []

    /// The settings named one by one when they differ: the ones a restart is most often forgotten for.
    private static let startOnly: [(key: String, differs: @Sendable (ServerConfiguration, ServerConfiguration) -> Bool)] = [
        ("host", { $0.host != $1.host }),
        ("port", { $0.port != $1.port }),
        ("data", { $0.dataDirectory != $1.dataDirectory }),
        ("database", { $0.storage != $1.storage }),
        ("databaseListen", { $0.databaseListenURL != $1.databaseListenURL }),
        ("loops", { $0.loops != $1.loops }),
        ("publicURL", { $0.publicURL != $1.publicURL }),
        ("maxConnections", { $0.maxConnections != $1.maxConnections }),
    ]

    /// Compares the running configuration `old` with the one just read, `new`.
    package init(from old: ServerConfiguration, to new: ServerConfiguration) {
        if new.logLevel != old.logLevel { logLevel = new.logLevel }
        needsRestart = Self.startOnly.filter { $0.differs(old, new) }.map(\.key)
        // Whatever else differs, once the reloadable and the named settings are set equal.
        var rest = new
        rest.logLevel = old.logLevel
        rest.host = old.host
        rest.port = old.port
        rest.dataDirectory = old.dataDirectory
        rest.storage = old.storage
        rest.databaseListenURL = old.databaseListenURL
        rest.loops = old.loops
        rest.publicURL = old.publicURL
        rest.maxConnections = old.maxConnections
        if rest != old { needsRestart.append("other settings") }
    }

    /// The running configuration after the reload: `old` with the settings that applied taken from `new`.
    package static func applied(_ reload: ConfigurationReload, to old: ServerConfiguration) -> ServerConfiguration {
        var running = old
        if let level = reload.logLevel { running.logLevel = level }
        return running
    }
}
