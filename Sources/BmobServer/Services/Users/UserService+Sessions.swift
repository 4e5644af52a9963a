import BmobCrypto
package import BmobStore
package import BmobWire

extension UserService {
    /// A session as listed to its user: an id derived from the token's hash (it cannot be used to log in),
    /// the dates, and whether it is the session making the request.
    package static func describe(_ session: StoredSession, current: String?, renderer: ObjectRenderer) -> JSONValue {
        [
            "objectId": .string(sessionId(session.tokenHash)),
            "createdAt": .string(renderer.date(session.createdAt)),
            "expiresAt": .string(renderer.date(session.expiresAt)),
            "current": .bool(session.tokenHash == current),
        ]
    }

    /// The public id of a session: the first 20 hex digits of its token's SHA-256.
    package static func sessionId(_ tokenHash: String) -> String {
        String(tokenHash.prefix(20))
    }

    /// The unexpired sessions of `userId` (the caller's own, or any user's with the master key).
    ///
    /// - Throws: 206 without that user's session or the master key.
    package func sessions(userId: String, context: AppContext) async throws -> [JSONValue] {
        try await requireOwner(userId, context)
        let now = clock.nowMilliseconds()
        let current = context.sessionToken.map { SHA256.hex(Array($0.utf8)) }
        let renderer = context.renderer
        return try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                try transaction.sessions(userId: userId).filter { $0.expiresAt > now }
                    .map { Self.describe($0, current: current, renderer: renderer) }
            }
        }
    }

    /// Ends one session of `userId` by its listed id.
    ///
    /// - Throws: 206 without that user's session or the master key; 101 for an id that is not one of its sessions.
    package func revokeSession(userId: String, sessionId: String, context: AppContext) async throws {
        try await requireOwner(userId, context)
        guard sessionId.utf8.count == 20 else { throw BmobAPIError(.objectNotFound, "no session \(sessionId)") }
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                guard let session = try transaction.sessions(userId: userId).first(where: { Self.sessionId($0.tokenHash) == sessionId }) else {
                    throw BmobAPIError(.objectNotFound, "no session \(sessionId)")
                }
                try transaction.deleteSession(tokenHash: session.tokenHash)
            }
        }
        context.sessions.forget(userId: userId)
    }
}
