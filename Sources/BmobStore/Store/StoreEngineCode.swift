/// An engine's own result code behind a ``StoreError`` (SQLite's extended result code; PostgreSQL's SQLSTATE),
/// kept so that the engine's code can match on it and logs can show it. Nothing above the engine reads it: the
/// engine maps what callers act on to a ``StoreError/Code``.
protocol StoreEngineCode: Sendable, CustomStringConvertible {}
