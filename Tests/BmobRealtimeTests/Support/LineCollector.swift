import BmobIO
import Foundation

/// Reads a child's output on a thread and keeps its lines.
///
/// Invariant for `@unchecked Sendable`: `lines` and `consumed` are only touched while `lock` is held.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var consumed = Set<Int>()

    /// Collects the lines `process` writes to its output pipe.
    init(_ process: ChildProcess) {
        let thread = Foundation.Thread { [self] in
            var pending = Data()
            while true {
                let chunk = ChildProcess.read(process.output!)
                if chunk.isEmpty { return }
                pending += chunk
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[pending.index(after: newline)...])
                    lock.withLock { lines.append(line) }
                }
            }
        }
        thread.start()
    }

    func waitForLine(prefix: String, timeout: Double) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = lock.withLock { () -> String? in
                for (index, line) in lines.enumerated() where !consumed.contains(index) && line.hasPrefix(prefix) {
                    consumed.insert(index)
                    return line
                }
                return nil
            }
            if let found { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
        let seen = lock.withLock { lines }
        throw PeerError("no line starting with '\(prefix)' within \(timeout) s; output so far: \(seen)")
    }
}
