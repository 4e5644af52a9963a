/// The apps of a deployment on PostgreSQL, for every server node to read: `"bmob-registry".apps`, one row per app
/// holding the server's JSON document of it (keys, settings, security), beside the apps' own schemas (whose names
/// never hold a `-`, so no app's schema can be this one).
///
/// The server keeps apps in `apps.json` on SQLite; on PostgreSQL several nodes must agree on them, so they live
/// here. Each call opens a short connection: apps are read at start, on an unknown Application ID (at most once a
/// second) and by the `bmob apps` commands.
package struct PostgresAppTable: Sendable {
    /// The database: a `postgres://` URL or a libpq connection string.
    package let url: String

    /// A table in the database at `url`.
    package init(url: String) {
        self.url = url
    }

    /// Every app's document, oldest first.
    ///
    /// - Throws: ``StoreError`` (``StoreError/Code/unavailable`` when the server cannot be reached).
    package func load() throws -> [String] {
        try withTable { connection in
            try connection.rows(#"SELECT document FROM "bmob-registry"."apps" ORDER BY createdAt, applicationId"#) {
                $0.text(0) ?? ""
            }
        }
    }

    /// Adds an app unless one with this Application ID exists.
    ///
    /// - Returns: Whether it was added.
    /// - Throws: ``StoreError``.
    package func insert(applicationId: String, document: String, createdAt: Int64) throws -> Bool {
        try withTable { connection in
            try connection.run(
                #"INSERT INTO "bmob-registry"."apps" (applicationId, document, createdAt) VALUES (?, ?, ?) "#
                    + "ON CONFLICT (applicationId) DO NOTHING",
                [.text(applicationId), .text(document), .integer(createdAt)]) == 1
        }
    }

    /// Replaces an app's document.
    ///
    /// - Returns: Whether the app exists.
    /// - Throws: ``StoreError``.
    package func update(applicationId: String, document: String) throws -> Bool {
        try withTable { connection in
            try connection.run(
                #"UPDATE "bmob-registry"."apps" SET document = ? WHERE applicationId = ?"#,
                [.text(document), .text(applicationId)]) == 1
        }
    }

    /// A value that changes whenever an app is added or changed: the number of apps and a digest of their
    /// documents (the table holds a few apps, so the digest is cheap).
    ///
    /// - Throws: ``StoreError``.
    package func version() throws -> String {
        try withTable { connection in
            try connection.firstRow(
                #"SELECT count(*), md5(COALESCE(string_agg(document, '' ORDER BY applicationId), '')) FROM "bmob-registry"."apps""#
            ) {
                "\($0.int64(0)):\($0.text(1) ?? "")"
            } ?? "0:"
        }
    }

    /// Every app's document, oldest first, with the ``version()`` they make, read in one snapshot: a change made
    /// meanwhile shows in both or in neither.
    ///
    /// - Throws: ``StoreError``.
    package func snapshot() throws -> (documents: [String], version: String) {
        try withTable { connection in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let version = try connection.firstRow(
                #"SELECT count(*), md5(COALESCE(string_agg(document, '' ORDER BY applicationId), '')) FROM "bmob-registry"."apps""#
            ) {
                "\($0.int64(0)):\($0.text(1) ?? "")"
            } ?? "0:"
            let documents = try connection.rows(
                #"SELECT document FROM "bmob-registry"."apps" ORDER BY createdAt, applicationId"#
            ) {
                $0.text(0) ?? ""
            }
            try connection.execute("COMMIT")
            return (documents, version)
        }
    }

    /// The deployment's secret called `name`, the same on every node: the first node to ask stores `candidate`,
    /// every node (that one included) gets what is stored.
    ///
    /// - Throws: ``StoreError``.
    package func sharedSecret(_ name: String, candidate: String) throws -> String {
        try withTable { connection in
            try connection.run(
                #"INSERT INTO "bmob-registry"."secrets" (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"#,
                [.text(name), .text(candidate)])
            guard let value = try connection.firstRow(
                #"SELECT value FROM "bmob-registry"."secrets" WHERE name = ?"#, [.text(name)], { $0.text(0) }) ?? nil
            else { throw StoreError(.internal, "the secret \(name) was not stored") }
            return value
        }
    }

    /// Connects, makes the table on first use (under an advisory lock, since nodes may start together), and runs
    /// `body`.
    private func withTable<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try PostgresConnection(url: url, applicationName: "bmob-apps")
        defer { connection.close() }
        do {
            try connection.execute(
                """
                BEGIN; SELECT pg_advisory_xact_lock(\(Self.lockKey));
                CREATE SCHEMA IF NOT EXISTS "bmob-registry";
                CREATE TABLE IF NOT EXISTS "bmob-registry"."apps" (
                    applicationId text COLLATE "C" PRIMARY KEY, document text NOT NULL, createdAt bigint NOT NULL);
                CREATE TABLE IF NOT EXISTS "bmob-registry"."secrets" (name text COLLATE "C" PRIMARY KEY, value text NOT NULL);
                COMMIT
                """)
            return try body(connection)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.internal, "reading the apps failed", underlying: error)
        }
    }

    /// The advisory lock key of the registry's creation: its schema's name, hashed as the apps' keys are.
    private static let lockKey = PostgresSchemaName.lockKey(of: "bmob-registry")
}
