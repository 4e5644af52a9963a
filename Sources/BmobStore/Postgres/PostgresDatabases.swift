/// Database-level chores on a PostgreSQL server, for tools and test harnesses: making and dropping whole databases
/// (a store itself only ever makes schemas inside the database it is given).
package enum PostgresDatabases {
    /// Creates the database `name` on the server at `url` (any database of it) unless it exists, and returns the
    /// URL of the new database: `url` with its database name replaced.
    ///
    /// - Parameter name: Letters, digits and `_` only.
    /// - Throws: ``StoreError``: ``StoreError/Code/unavailable`` when the server cannot be reached,
    ///   ``StoreError/Code/invalidQuery`` for a bad name.
    package static func create(_ name: String, on url: String) throws -> String {
        let quoted = try quotedName(name)
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        let exists = try connection.firstRow("SELECT 1 FROM pg_database WHERE datname = ?", [.text(name)]) { _ in true }
        if exists == nil {
            try connection.execute("CREATE DATABASE \(quoted)")
        }
        return Self.url(url, database: name)
    }

    /// Drops the database `name` on the server at `url`, ending its sessions first; nothing when it does not exist.
    ///
    /// - Throws: ``StoreError``.
    package static func drop(_ name: String, on url: String) throws {
        let quoted = try quotedName(name)
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        try connection.execute("DROP DATABASE IF EXISTS \(quoted) WITH (FORCE)")
    }

    /// Drops an app's schema and everything in it; nothing when it does not exist.
    ///
    /// - Throws: ``StoreError``.
    package static func dropSchema(_ schema: PostgresSchemaName, on url: String) throws {
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        try connection.execute("DROP SCHEMA IF EXISTS \(schema.quoted) CASCADE")
    }

    /// `url` naming database `database` instead: the path of a `postgres://` URL is the database name.
    static func url(_ url: String, database: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let afterScheme = url[schemeEnd.upperBound...]
        let queryStart = afterScheme.firstIndex(of: "?") ?? afterScheme.endIndex
        let authority = afterScheme[..<queryStart]
        let host = authority.firstIndex(of: "/").map { authority[..<$0] } ?? authority
        return String(url[..<schemeEnd.upperBound]) + host + "/" + database + afterScheme[queryStart...]
    }

    private static func quotedName(_ name: String) throws(StoreError) -> String {
        let valid = !name.isEmpty && name.utf8.count <= 63
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
        guard valid else { throw StoreError.invalidQuery("a database name has lower-case letters, digits and _ only") }
        return "\"\(name)\""
    }
}
