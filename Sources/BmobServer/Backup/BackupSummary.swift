/// What a backup wrote or a restore recreated: each app's database, the stored files and the archive's size.
package struct BackupSummary: Sendable {
    /// The apps of the registry, in its order.
    package var applicationIds: [String] = []
    /// The apps whose database is in the archive (an app that never stored anything has none).
    package var databases: [String] = []
    /// Stored files (the local file storage's).
    package var fileCount = 0
    /// The stored files' bytes.
    package var fileBytes = 0
    /// The archive's size in bytes.
    package var archiveBytes = 0
}
