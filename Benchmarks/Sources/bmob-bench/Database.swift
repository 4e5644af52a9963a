import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection opened with the store's flags and pragmas.
final class Database {
    let handle: OpaquePointer

    init(path: String, synchronous: String, fresh: Bool) {
        if fresh {
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        }
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &opened, flags, nil) == SQLITE_OK, let opened else {
            fail("cannot open \(path)")
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5000)
        let mode = Statement(self, "PRAGMA journal_mode = WAL")
        guard mode.step(), mode.text(0).lowercased() == "wal" else { fail("the database cannot use WAL") }
        execute("PRAGMA synchronous = \(synchronous)")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            fail("\(String(cString: sqlite3_errmsg(handle))) in: \(sql)")
        }
    }
}
