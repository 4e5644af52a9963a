#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BmobStore

/// `bmob migrate`'s progress on stderr: a bar redrawn in place when stderr is a terminal, otherwise a plain line
/// as each table starts and when the app is done.
final class MigrationProgressBar {
    private let isTerminal = isatty(2) != 0
    private var lastTable = ""
    private var lastPermille = -1
    private var last: StoreMigrationProgress?

    /// Shows `progress` if it changed enough to be seen.
    func show(_ progress: StoreMigrationProgress) {
        last = progress
        let permille = progress.totalRows == 0 ? 1000 : progress.copiedRows * 1000 / progress.totalRows
        if isTerminal {
            guard permille != lastPermille || progress.table != lastTable else { return }
            let filled = permille * 30 / 1000
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
            emit("\r\u{1B}[2K\(progress.applicationId) [\(bar)] \(progress.copiedRows)/\(progress.totalRows) \(progress.table)")
        } else if progress.table != lastTable {
            emit("\(progress.applicationId): \(progress.table) (\(progress.copiedRows)/\(progress.totalRows) rows)\n")
        }
        lastTable = progress.table
        lastPermille = permille
    }

    /// Ends the bar's line.
    func finish() {
        guard let last else { return }
        if isTerminal {
            emit("\n")
        } else {
            emit("\(last.applicationId): \(last.copiedRows)/\(last.totalRows) rows\n")
        }
    }

    private func emit(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
