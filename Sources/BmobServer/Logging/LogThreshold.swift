import Synchronization

/// The level a ``Logger`` and its copies share, so that a reload (`SIGHUP`) can change what every service's
/// logger prints without handing out new loggers.
package final class LogThreshold: Sendable {
    private let rawValue: Atomic<Int>

    package init(_ level: LogLevel) {
        rawValue = Atomic(level.rawValue)
    }

    /// The level below which messages are dropped.
    package var level: LogLevel {
        get { LogLevel(rawValue: rawValue.load(ordering: .relaxed)) ?? .info }
        set { rawValue.store(newValue.rawValue, ordering: .relaxed) }
    }
}
