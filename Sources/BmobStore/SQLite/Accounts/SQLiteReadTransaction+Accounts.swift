extension SQLiteReadTransaction {
    func credential(userId: String) throws -> String? {
        try checkUsable()
        return try SQLiteAccountRows.credential(connection, userId: userId)
    }

    func session(tokenHash: String) throws -> StoredSession? {
        try checkUsable()
        return try SQLiteAccountRows.session(connection, tokenHash: tokenHash)
    }

    func sessions(userId: String) throws -> [StoredSession] {
        try checkUsable()
        return try SQLiteAccountRows.sessions(connection, userId: userId)
    }
}
