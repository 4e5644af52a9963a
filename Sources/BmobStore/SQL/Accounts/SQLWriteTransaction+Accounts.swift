extension SQLWriteTransaction {
    func credential(userId: String) throws -> String? {
        checkActive()
        return try AccountRows.credential(connection, userId: userId)
    }

    func session(tokenHash: String) throws -> StoredSession? {
        checkActive()
        return try AccountRows.session(connection, tokenHash: tokenHash)
    }

    func sessions(userId: String) throws -> [StoredSession] {
        checkActive()
        return try AccountRows.sessions(connection, userId: userId)
    }

    func setCredential(userId: String, hash: String) throws {
        checkActive()
        try AccountRows.setCredential(connection, userId: userId, hash: hash)
        try connection.announceSessionChange()
    }

    func insertSession(_ session: StoredSession) throws {
        checkActive()
        try AccountRows.insertSession(connection, session)
    }

    @discardableResult
    func deleteSession(tokenHash: String) throws -> Bool {
        checkActive()
        let deleted = try AccountRows.deleteSession(connection, tokenHash: tokenHash)
        if deleted { try connection.announceSessionChange() }
        return deleted
    }

    @discardableResult
    func deleteSessions(userId: String, except tokenHash: String?) throws -> Int {
        checkActive()
        let deleted = try AccountRows.deleteSessions(connection, userId: userId, except: tokenHash)
        if deleted > 0 { try connection.announceSessionChange() }
        return deleted
    }

    func deleteAccount(userId: String) throws {
        checkActive()
        try AccountRows.deleteAccount(connection, userId: userId)
        try connection.announceSessionChange()
    }
}
