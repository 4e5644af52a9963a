import BmobWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes log lines to standard error (stdout is reserved for the CLI's output): `level label: message key=value`
/// as text, or one JSON object per line (`{"time","level","label","message",…metadata}`). Access lines go through
/// ``StandardErrorBuffer``, a write per many lines.
package struct StandardErrorLogHandler: LogHandler {
    package var format: LogFormat
    /// The wall clock for JSON lines' `time`.
    package var clock: ServerClock

    package init(format: LogFormat = .text, clock: ServerClock = .system) {
        self.format = format
        self.clock = clock
    }

    package func log(level: LogLevel, label: String, message: String, metadata: [String: String]) {
        var line: String
        switch format {
        case .text:
            line = "\(level) \(label): \(message)"
            for key in metadata.keys.sorted() {
                line += " \(key)=\(metadata[key]!)"
            }
        case .json:
            var object: [String: JSONValue] = metadata.mapValues { .string($0) }
            object["time"] = .string(LogTimestamp.format(milliseconds: clock.nowMilliseconds()))
            object["level"] = .string(level.description)
            object["label"] = .string(label)
            object["message"] = .string(message)
            line = JSONValue.object(object).jsonString
        }
        line += "\n"
        // Waiting access lines go first, so that a message logged after a request follows its access line.
        StandardErrorBuffer.shared.flush()
        // write(2) on fd 2: unbuffered, one call per line, and no shared `FILE *` to guard.
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    package func writeAccessLine(_ line: String) {
        StandardErrorBuffer.shared.append(line)
    }
}
