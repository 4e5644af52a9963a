#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress of `bmob migrate`, `export` and `import` on stderr: a bar redrawn in place when stderr is a terminal,
/// otherwise a plain line as each step (a table, a class) starts and when the subject (an app) is done.
final class ProgressBar {
    private let isTerminal = isatty(2) != 0
    private var lastStep = ""
    private var lastPermille = -1
    private var last: (subject: String, done: Int, total: Int, unit: String)?

    /// Shows that `done` of `total` `unit`s of `subject` are done, now at `step`, if it changed enough to be seen.
    func show(subject: String, step: String, done: Int, total: Int, unit: String) {
        last = (subject, done, total, unit)
        let permille = total == 0 ? 1000 : min(1000, done * 1000 / total)
        if isTerminal {
            guard permille != lastPermille || step != lastStep else { return }
            let filled = permille * 30 / 1000
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
            emit("\r\u{1B}[2K\(subject) [\(bar)] \(done)/\(total) \(step)")
        } else if step != lastStep {
            emit("\(subject): \(step) (\(done)/\(total) \(unit))\n")
        }
        lastStep = step
        lastPermille = permille
    }

    /// Ends the bar's line.
    func finish() {
        guard let last else { return }
        if isTerminal {
            emit("\n")
        } else {
            emit("\(last.subject): \(last.done)/\(last.total) \(last.unit)\n")
        }
        self.last = nil
        lastStep = ""
        lastPermille = -1
    }

    private func emit(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
