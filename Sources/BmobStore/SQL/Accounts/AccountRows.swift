/// The SQL for user accounts' secrets, kept out of the `_User` table so that no query, include or journal
/// entry can ever return them: `__credential` (password hash per user) and `__session` (hashed session tokens).
enum AccountRows {
    static let createTables = """
        CREATE TABLE "__credential" (
            userId TEXT PRIMARY KEY NOT NULL,
            hash TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE "__session" (
            tokenHash TEXT PRIMARY KEY NOT NULL,
            userId TEXT NOT NULL,
            createdAt INTEGER NOT NULL,
            expiresAt INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX "__session_user" ON "__session" (userId, createdAt);
        """

    static func credential(_ connection: some SQLStoreConnection, userId: String) throws -> String? {
        try connection.firstRow(#"SELECT hash FROM "__credential" WHERE userId = ?"#, [.text(userId)]) { $0.text(0) } ?? nil
    }

    static func setCredential(_ connection: some SQLStoreConnection, userId: String, hash: String) throws {
        try connection.run(
            #"INSERT INTO "__credential" (userId, hash) VALUES (?, ?) ON CONFLICT (userId) DO UPDATE SET hash = excluded.hash"#,
            [.text(userId), .text(hash)])
    }

    static func session(_ connection: some SQLStoreConnection, tokenHash: String) throws -> StoredSession? {
        try connection.firstRow(
            #"SELECT tokenHash, userId, createdAt, expiresAt FROM "__session" WHERE tokenHash = ?"#, [.text(tokenHash)],
            row) ?? nil
    }

    static func sessions(_ connection: some SQLStoreConnection, userId: String) throws -> [StoredSession] {
        try connection.rows(
            #"SELECT tokenHash, userId, createdAt, expiresAt FROM "__session" WHERE userId = ? ORDER BY createdAt"#,
            [.text(userId)], row
        ).compactMap { $0 }
    }

    static func insertSession(_ connection: some SQLStoreConnection, _ session: StoredSession) throws {
        try connection.run(
            #"INSERT INTO "__session" (tokenHash, userId, createdAt, expiresAt) VALUES (?, ?, ?, ?)"#,
            [.text(session.tokenHash), .text(session.userId), .integer(session.createdAt), .integer(session.expiresAt)])
    }

    static func deleteSession(_ connection: some SQLStoreConnection, tokenHash: String) throws -> Bool {
        try connection.run(#"DELETE FROM "__session" WHERE tokenHash = ?"#, [.text(tokenHash)]) > 0
    }

    static func deleteSessions(_ connection: some SQLStoreConnection, userId: String, except tokenHash: String?) throws -> Int {
        try connection.run(
            #"DELETE FROM "__session" WHERE userId = ? AND tokenHash IS DISTINCT FROM ?"#,
            [.text(userId), SQLValue(tokenHash)])
    }

    /// Removes a deleted user's password and sessions.
    static func deleteAccount(_ connection: some SQLStoreConnection, userId: String) throws {
        try connection.run(#"DELETE FROM "__credential" WHERE userId = ?"#, [.text(userId)])
        try connection.run(#"DELETE FROM "__session" WHERE userId = ?"#, [.text(userId)])
    }

    private static func row(_ statement: some SQLRow) -> StoredSession? {
        guard let tokenHash = statement.text(0), let userId = statement.text(1) else { return nil }
        return StoredSession(
            tokenHash: tokenHash, userId: userId, createdAt: statement.int64(2), expiresAt: statement.int64(3))
    }
}
