/// A statement sent in pipeline mode whose answer was not read yet (``PostgresConnection/sendDeferred(_:_:)``).
struct PostgresDeferredWrite {
    /// The statement's SQL text, for error messages and the statement cache.
    let sql: String
    /// For a `Parse` of `sql`: the statement name the cache records once it succeeded.
    let preparedName: String?
}
