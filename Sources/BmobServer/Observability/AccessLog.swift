/// Writes one line per answered request through the server's log handler: in text, logfmt
/// (`time=… request=… app=… method=GET route=/1/classes/:className status=200 bytes=517 ms=0.412 caller=key`);
/// in JSON, one object per line with the same members (`durationMs` for `ms`, plus `level` and `label`).
///
/// Lines are formatted as bytes (``AccessLineWriter``), straight into the standard-error buffer when that is where
/// the log goes: string interpolation cost more than the rest of a `/health` request.
package struct AccessLog: Sendable {
    package var format: LogFormat
    package var handler: any LogHandler
    /// Whether the handler writes to standard error, so lines can be formatted into its buffer directly.
    private let toStandardError: Bool

    package init(format: LogFormat, handler: any LogHandler) {
        self.format = format
        self.handler = handler
        self.toStandardError = handler is StandardErrorLogHandler
    }

    package func record(_ entry: AccessLogEntry) {
        if toStandardError {
            let format = self.format
            StandardErrorBuffer.shared.appendLine { AccessLineWriter.append(entry, format: format, to: &$0) }
        } else {
            handler.writeAccessLine(line(entry))
        }
    }

    /// The line for `entry`, without its newline.
    package func line(_ entry: AccessLogEntry) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(192)
        AccessLineWriter.append(entry, format: format, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
