extension SQLiteWriteTransaction {
    func credential(userId: String) throws -> String? {
        checkActive()
        return try SQLiteAccountRows.credential(connection, userId: userId)
    }

    func session(tokenHash: String) throws -> StoredSession? {
        checkActive()
        return try SQLiteAccountRows.session(connection, tokenHash: tokenHash)
    }

    func sessions(userId: String) throws -> [StoredSession] {
        checkActive()
        return try SQLiteAccountRows.sessions(connection, userId: userId)
    }

    func setCredential(userId: String, hash: String) throws {
        checkActive()
        try SQLiteAccountRows.setCredential(connection, userId: userId, hash: hash)
    }

    func insertSession(_ session: StoredSession) throws {
        checkActive()
        try SQLiteAccountRows.insertSession(connection, session)
    }

    @discardableResult
    func deleteSession(tokenHash: String) throws -> Bool {
        checkActive()
        return try SQLiteAccountRows.deleteSession(connection, tokenHash: tokenHash)
    }

    @discardableResult
    func deleteSessions(userId: String, except tokenHash: String?) throws -> Int {
        checkActive()
        return try SQLiteAccountRows.deleteSessions(connection, userId: userId, except: tokenHash)
    }

    func deleteAccount(userId: String) throws {
        checkActive()
        try SQLiteAccountRows.deleteAccount(connection, userId: userId)
    }
}
