extension StoreError {
    /// The SQLite result code behind this error, when SQLite failed.
    var sqliteCode: SQLiteResultCode? {
        get { engineCode as? SQLiteResultCode }
        set { engineCode = newValue }
    }
}
