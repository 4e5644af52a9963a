extension SQLiteStore {
    /// How hard a COMMIT pushes data to disk (`PRAGMA synchronous`).
    ///
    /// In WAL mode a COMMIT writes the transaction to the WAL file before it returns. With ``normal``
    /// that write reaches the operating system but is not flushed, so an acknowledged write survives a
    /// process crash (the kernel still has it) but the last transactions can be lost on power loss or an
    /// OS crash; the database itself stays consistent either way. ``full`` adds an fsync of the WAL per
    /// COMMIT, which survives power loss at the cost of one disk flush per group (group commit shares it
    /// among all writes queued meanwhile).
    package enum SynchronousMode: Sendable, Hashable {
        /// Survives a process crash; the default.
        case normal
        /// Also survives power loss and OS crashes.
        case full

        /// The `PRAGMA synchronous` value.
        var pragmaValue: String {
            switch self {
            case .normal: "NORMAL"
            case .full: "FULL"
            }
        }
    }
}
