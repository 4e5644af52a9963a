/// Why a backup or a restore stopped: one sentence naming the file or the archive entry at fault.
package struct BackupError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for the operator.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}
