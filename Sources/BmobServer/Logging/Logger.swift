/// A small logger in the shape of swift-log: a value with a label, a level and a handler.
///
/// Libraries take a `Logger` as an argument and never create a global one; `bmob serve` and tests decide where
/// messages go by choosing the handler.
package struct Logger: Sendable {
    package var label: String
    /// Messages below this level are dropped. Setting it changes this copy only; ``changeLevelOfEveryCopy(to:)``
    /// changes it for every copy of the logger too.
    package var level: LogLevel {
        get { threshold.level }
        set { threshold = LogThreshold(newValue) }
    }
    /// Shared by the copies of this logger until one of them sets ``level``.
    private var threshold: LogThreshold
    package var handler: any LogHandler
    /// Key–value pairs added to every message from this logger.
    package var metadata: [String: String] = [:]

    package init(label: String, level: LogLevel = .info, handler: any LogHandler = StandardErrorLogHandler()) {
        self.label = label
        self.threshold = LogThreshold(level)
        self.handler = handler
    }

    /// A logger that drops everything.
    package static var disabled: Logger {
        Logger(label: "disabled", level: .critical, handler: DiscardingLogHandler())
    }

    /// Changes the level of this logger and of every copy made from it that kept its level (what a reload of the
    /// `logLevel` setting does for a running server).
    package func changeLevelOfEveryCopy(to level: LogLevel) {
        threshold.level = level
    }

    package func log(_ level: LogLevel, _ message: @autoclosure () -> String, metadata extra: [String: String] = [:]) {
        guard level >= self.level else { return }
        handler.log(level: level, label: label, message: message(), metadata: metadata.merging(extra) { $1 })
    }

    package func debug(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.debug, message(), metadata: metadata)
    }

    package func info(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.info, message(), metadata: metadata)
    }

    package func notice(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.notice, message(), metadata: metadata)
    }

    package func warning(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.warning, message(), metadata: metadata)
    }

    package func error(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.error, message(), metadata: metadata)
    }
}
