import CSQLite

/// An SQLite result code, primary or extended, as a value that `catch … where` can match.
///
/// Connections enable extended codes, so a constraint failure arrives as ``constraintPrimaryKey`` and
/// still matches ``constraint`` through ``primary``.
struct SQLiteResultCode: RawRepresentable, Hashable, StoreEngineCode {
    var rawValue: Int32

    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low byte of an extended code.
    var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// The code with SQLite's own English text for it (`SQLite 19 (constraint failed)`); it names no values, so
    /// it is safe to log.
    var description: String {
        "SQLite \(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    static let ok = Self(rawValue: SQLITE_OK)
    static let error = Self(rawValue: SQLITE_ERROR)
    static let `internal` = Self(rawValue: SQLITE_INTERNAL)
    static let busy = Self(rawValue: SQLITE_BUSY)
    static let locked = Self(rawValue: SQLITE_LOCKED)
    static let noMemory = Self(rawValue: SQLITE_NOMEM)
    static let readOnly = Self(rawValue: SQLITE_READONLY)
    static let interrupt = Self(rawValue: SQLITE_INTERRUPT)
    static let ioError = Self(rawValue: SQLITE_IOERR)
    static let corrupt = Self(rawValue: SQLITE_CORRUPT)
    static let full = Self(rawValue: SQLITE_FULL)
    static let tooBig = Self(rawValue: SQLITE_TOOBIG)
    static let cantOpen = Self(rawValue: SQLITE_CANTOPEN)
    static let schema = Self(rawValue: SQLITE_SCHEMA)
    static let constraint = Self(rawValue: SQLITE_CONSTRAINT)
    static let misuse = Self(rawValue: SQLITE_MISUSE)
    static let notADatabase = Self(rawValue: SQLITE_NOTADB)
    static let row = Self(rawValue: SQLITE_ROW)
    static let done = Self(rawValue: SQLITE_DONE)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`, a macro Swift does not import.
    static let constraintPrimaryKey = Self(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    /// `SQLITE_CONSTRAINT_UNIQUE`: a unique index already holds the value.
    static let constraintUnique = Self(rawValue: SQLITE_CONSTRAINT | (8 << 8))
}
