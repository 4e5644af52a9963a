/// What `bmob serve` does on `SIGHUP`: re-reads the apps (``AppDirectory/reload()``) and the configuration (the
/// `--config` file with the start's environment and flags, ``ConfigurationReload``), applies what can change while
/// running, and logs one line saying what was reloaded.
///
/// Nothing is dropped: open connections stay, in-flight requests finish with the settings they started with. A
/// registry or config file that cannot be read or is malformed is logged as an error and the running settings are
/// kept, all of them (the apps' and the configuration's: a reload applies both or, for the part that failed,
/// nothing).
package struct ServeReloader: Sendable {
    private let flags: [String: String]
    private let environment: [String: String]
    private let server: Server
    private let logger: Logger
    /// The configuration the server runs with: the start's, with each reload's applied settings.
    private var running: ServerConfiguration

    /// - Parameters:
    ///   - flags: the start's command-line flags, by flag name.
    ///   - environment: the start's environment.
    ///   - configuration: the configuration the server started with.
    package init(
        flags: [String: String], environment: [String: String], configuration: ServerConfiguration, server: Server,
        logger: Logger
    ) {
        self.flags = flags
        self.environment = environment
        self.running = configuration
        self.server = server
        self.logger = logger
    }

    /// Reloads the apps and the configuration and logs the outcome; returns the line logged for a reload that
    /// applied, `nil` when both parts failed.
    @discardableResult
    package mutating func reload() async -> String? {
        var parts: [String] = []
        do {
            let apps = try await server.context.apps.reload()
            for failure in apps.failed {
                logger.error("reload: cannot open the app \(failure.applicationId) (\(failure.reason))")
            }
            parts.append("apps: \(apps.summary)")
        } catch {
            logger.error("reload: the apps were not reloaded, the running apps keep their settings: \(error)")
        }
        do {
            let loaded = try ConfigurationLoader.load(flags: flags, environment: environment)
            let change = ConfigurationReload(from: running, to: loaded)
            if let level = change.logLevel {
                logger.changeLevelOfEveryCopy(to: level)
                parts.append("settings: logLevel \(level)")
            } else {
                parts.append("settings: unchanged")
            }
            if !change.needsRestart.isEmpty {
                logger.warning(
                    "reload: \(change.needsRestart.joined(separator: ", ")) changed; these apply after a restart, "
                        + "the server keeps running with the old values")
            }
            running = ConfigurationReload.applied(change, to: running)
        } catch {
            logger.error("reload: the configuration was not reloaded, the running settings are kept: \(error)")
        }
        guard !parts.isEmpty else { return nil }
        let line = "reloaded on SIGHUP: \(parts.joined(separator: "; "))"
        // Notice, so that it shows at the reloaded level too unless that is warning or above.
        logger.notice(line)
        return line
    }
}
