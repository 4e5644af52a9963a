package import BmobIO

/// The services every handler can reach: configuration, apps, clock, logger, the blocking pool.
package final class ServerContext: Sendable {
    package let configuration: ServerConfiguration
    package let apps: AppDirectory
    package let clock: ServerClock
    package let logger: Logger
    /// Threads for blocking work (file reads, password hashing) so it never runs on an event loop.
    package let blockingPool: ThreadPool

    package init(configuration: ServerConfiguration, apps: AppDirectory, clock: ServerClock, logger: Logger, blockingPool: ThreadPool) {
        self.configuration = configuration
        self.apps = apps
        self.clock = clock
        self.logger = logger
        self.blockingPool = blockingPool
    }
}
