/// Where log messages go. Handlers are values shared across threads, so they must be `Sendable`.
package protocol LogHandler: Sendable {
    /// Writes one message that passed the logger's level.
    func log(level: LogLevel, label: String, message: String, metadata: [String: String])

    /// Writes one access-log line, already formatted (no newline). Access lines do not depend on the level.
    /// By default they are handed to ``log(level:label:message:metadata:)`` as `info` messages labelled `access`.
    func writeAccessLine(_ line: String)
}

extension LogHandler {
    package func writeAccessLine(_ line: String) {
        log(level: .info, label: "access", message: line, metadata: [:])
    }
}
