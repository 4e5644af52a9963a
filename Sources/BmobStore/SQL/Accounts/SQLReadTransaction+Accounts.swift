extension SQLReadTransaction {
    func credential(userId: String) throws -> String? {
        try checkUsable()
        return try AccountRows.credential(connection, userId: userId)
    }

    func session(tokenHash: String) throws -> StoredSession? {
        try checkUsable()
        return try AccountRows.session(connection, tokenHash: tokenHash)
    }

    func sessions(userId: String) throws -> [StoredSession] {
        try checkUsable()
        return try AccountRows.sessions(connection, userId: userId)
    }
}
