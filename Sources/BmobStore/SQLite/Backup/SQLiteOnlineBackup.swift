import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies an SQLite database that a server may be writing, with SQLite's online backup API, and checks copies.
///
/// The copy is made in one `sqlite3_backup_step(-1)`: it reads every page inside one read transaction, so it is
/// the database as of one commit. In WAL mode that read blocks no writer (writers append to the WAL meanwhile),
/// and a writer never restarts it (it would when copying page by page across several steps).
package enum SQLiteOnlineBackup {
    /// How long a copy waits for a lock before it gives up (a checkpoint or a migration holding the file).
    static let busyTimeoutMilliseconds: Int32 = 30_000

    /// Copies the database at `source` into a new file at `destination` (which must not exist).
    ///
    /// - Throws: ``SQLiteBackupError`` when either file cannot be opened or the copy fails.
    package static func copy(from source: String, to destination: String) throws(SQLiteBackupError) {
        // Read-write without create: a WAL reader must be able to map the -shm file; nothing is written.
        let sourceHandle = try open(source, flags: SQLITE_OPEN_READWRITE)
        defer { sqlite3_close_v2(sourceHandle) }
        let destinationHandle = try open(destination, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        defer { sqlite3_close_v2(destinationHandle) }
        guard let backup = sqlite3_backup_init(destinationHandle, "main", sourceHandle, "main") else {
            throw SQLiteBackupError("cannot start copying \(source): \(message(destinationHandle))")
        }
        var code = SQLITE_OK
        var attempts = 0
        repeat {
            code = sqlite3_backup_step(backup, -1)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED {
                attempts += 1
                usleep(50_000)
            }
        } while (code == SQLITE_BUSY || code == SQLITE_LOCKED) && attempts < 600
        let finished = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finished == SQLITE_OK else {
            let reason = code == SQLITE_DONE ? message(destinationHandle) : String(cString: sqlite3_errstr(code))
            throw SQLiteBackupError("cannot copy \(source): \(reason)")
        }
    }

    /// The answer of `PRAGMA integrity_check` on the database at `path`: empty when it is sound, otherwise
    /// SQLite's messages (at most 20).
    ///
    /// - Throws: ``SQLiteBackupError`` when the file cannot be opened or is not a database.
    package static func integrityProblems(path: String) throws(SQLiteBackupError) -> [String] {
        let handle = try open(path, flags: SQLITE_OPEN_READONLY)
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "PRAGMA integrity_check(20)", -1, &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw SQLiteBackupError("\(path) is not a database: \(message(handle))")
        }
        defer { sqlite3_finalize(statement) }
        var lines: [String] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw SQLiteBackupError("\(path) cannot be checked: \(message(handle))")
            }
            if let text = sqlite3_column_text(statement, 0) {
                lines.append(String(cString: text))
            }
        }
        return lines == ["ok"] ? [] : lines
    }

    private static func open(_ path: String, flags: Int32) throws(SQLiteBackupError) -> OpaquePointer {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let reason = handle.map(message) ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw SQLiteBackupError("cannot open \(path): \(reason)")
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        return handle
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: sqlite3_errmsg(handle))
    }
}
