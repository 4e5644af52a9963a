package import BmobIO

/// The services every handler can reach: configuration, apps, clock, logger, the blocking pool.
package final class ServerContext: Sendable {
    package let configuration: ServerConfiguration
    package let apps: AppDirectory
    package let clock: ServerClock
    package let logger: Logger
    /// Threads for blocking work (file reads, password hashing) so it never runs on an event loop.
    package let blockingPool: ThreadPool
    /// What `/metrics` shows.
    package let metrics = ServerMetrics()
    /// Where each answered request is written, unless the `accessLog` setting is off.
    package let accessLog: AccessLog?
    /// Ids for requests that bring no `X-Request-Id` of their own.
    package let requestIds = RequestIdGenerator()
    private let lock = Lock()
    // Invariant: `listeningURL` is read and written only under `lock`.
    private nonisolated(unsafe) var listeningURL: String?

    /// The `publicURL` setting, kept apart: reading it through ``configuration`` copies the whole configuration
    /// (every string in it retained and released), and a create's `Location` needs it on every request.
    package let configuredPublicURL: String?

    package init(configuration: ServerConfiguration, apps: AppDirectory, clock: ServerClock, logger: Logger, blockingPool: ThreadPool) {
        self.configuration = configuration
        self.configuredPublicURL = configuration.publicURL
        self.apps = apps
        self.clock = clock
        self.logger = logger
        self.blockingPool = blockingPool
        self.accessLog = configuration.accessLog ? AccessLog(format: configuration.logFormat, handler: logger.handler) : nil
    }

    /// The base URL clients are told to use (`/8/init`): the `publicURL` setting, else `http://host:port` of
    /// the listening socket once it is bound (the configured address before that).
    package var publicURL: String {
        if let configured = configuredPublicURL { return configured }
        return lock.withLock { listeningURL } ?? "http://\(configuration.host):\(configuration.port)"
    }

    /// Records the bound address, so that ``publicURL`` names the real port when port 0 was configured.
    package func setListeningURL(_ url: String) {
        lock.withLock { listeningURL = url }
    }
}
