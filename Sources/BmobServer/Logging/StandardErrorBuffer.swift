import BmobIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines for standard error that may wait a moment: the access log's. They are gathered and written in one
/// `write(2)` when 64 KiB are waiting or 100 ms have passed, so that a line per request does not cost a system
/// call per request. Process-wide, as file descriptor 2 is.
///
/// Other log lines are written at once (``StandardErrorLogHandler``); they may overtake access lines still
/// waiting here by up to the flush interval.
package final class StandardErrorBuffer: @unchecked Sendable {
    // Invariant: `pending` and `flusherStarted` are only touched inside `lock.withLock`; writes to fd 2 happen
    // under the same lock, so that buffers go out whole and in order.
    private let lock = Lock()
    private var pending: [UInt8] = []
    private var flusherStarted = false
    private static let threshold = 64 * 1024

    /// The one buffer in front of file descriptor 2.
    package static let shared = StandardErrorBuffer()

    private init() {}

    /// Queues `line` (a newline is added).
    package func append(_ line: String) {
        appendLine { $0.append(contentsOf: line.utf8) }
    }

    /// Queues the line `write` appends to the buffer; the newline is added here.
    package func appendLine(_ write: (inout [UInt8]) -> Void) {
        lock.withLock {
            write(&pending)
            pending.append(UInt8(ascii: "\n"))
            if pending.count >= Self.threshold { writePending() }
            if !flusherStarted {
                flusherStarted = true
                Thread.spawn(name: "bmob-log-flush") { [self] in
                    while true {
                        usleep(100_000)
                        flush()
                    }
                }.detach()
            }
        }
    }

    /// Writes whatever is waiting, now (at exit, and every 100 ms from the flusher thread).
    package func flush() {
        lock.withLock { writePending() }
    }

    private func writePending() {
        var offset = 0
        while offset < pending.count {
            let written = pending.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                break  // nowhere to report a broken standard error; the lines are dropped
            }
            offset += written
        }
        pending.removeAll(keepingCapacity: pending.count <= 4 * Self.threshold)
    }
}
