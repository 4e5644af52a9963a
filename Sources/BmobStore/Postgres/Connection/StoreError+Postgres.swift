extension StoreError {
    /// The SQLSTATE behind this error, when PostgreSQL failed a statement.
    var postgresState: PostgresState? {
        get { engineCode as? PostgresState }
        set { engineCode = newValue }
    }
}
