/// Drops every message.
package struct DiscardingLogHandler: LogHandler {
    package init() {}
    package func log(level: LogLevel, label: String, message: String, metadata: [String: String]) {}
}
