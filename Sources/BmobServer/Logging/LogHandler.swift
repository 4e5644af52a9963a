/// Where log messages go. Handlers are values shared across threads, so they must be `Sendable`.
package protocol LogHandler: Sendable {
    /// Writes one message that passed the logger's level.
    func log(level: LogLevel, label: String, message: String, metadata: [String: String])
}
