#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `LEVEL label: message key=value` lines to standard error (stdout is reserved for the CLI's output).
package struct StandardErrorLogHandler: LogHandler {
    package init() {}

    package func log(level: LogLevel, label: String, message: String, metadata: [String: String]) {
        var line = "\(level) \(label): \(message)"
        for key in metadata.keys.sorted() {
            line += " \(key)=\(metadata[key]!)"
        }
        line += "\n"
        // write(2) on fd 2: unbuffered, one call per line, and no shared `FILE *` to guard.
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
