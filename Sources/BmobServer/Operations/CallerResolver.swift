import BmobCrypto
import BmobStore

/// Resolves a request's ``Caller`` from its keys and session token: the master key, else the token's session
/// (user and roles, read together in one store read and kept in the app's ``SessionCache``), else anonymous.
/// A missing, unknown or expired token is not an error: the caller is anonymous.
///
/// Services ask it through ``caller(_:)``, which returns the caller already in the context when the operation
/// runner resolved it (the usual case: once per request or batch element).
package struct CallerResolver: Sendable {
    /// The time sessions and cache entries are judged by.
    package let clock: ServerClock

    /// A resolver reading `clock`.
    package init(clock: ServerClock) {
        self.clock = clock
    }

    /// The context's caller: the one resolved already, or a new resolution.
    ///
    /// - Throws: ``BmobAPIError`` for store faults.
    package func caller(_ context: AppContext) async throws -> Caller {
        if let caller = context.caller { return caller }
        return try await resolve(context)
    }

    /// `context` with its caller resolved.
    package func resolving(_ context: AppContext) async throws -> AppContext {
        guard context.caller == nil else { return context }
        var resolved = context
        resolved.caller = try await resolve(context)
        return resolved
    }

    /// The user of the request's session token, whether or not the master key came with it (a master-key
    /// request may still log its own session out); `nil` without a valid token.
    ///
    /// - Throws: ``BmobAPIError`` for store faults.
    package func sessionUserId(_ context: AppContext) async throws -> String? {
        if case .user(let id, _)? = context.caller { return id }
        return try await session(context)?.id
    }

    private func resolve(_ context: AppContext) async throws -> Caller {
        if context.isMaster { return .master }
        guard let (id, roles) = try await session(context) else { return .anonymous }
        return .user(id: id, roles: roles)
    }

    /// The session's user and roles: from the cache, or from one store read that the cache then keeps.
    private func session(_ context: AppContext) async throws -> (id: String, roles: Set<String>)? {
        guard let token = context.sessionToken, !token.isEmpty else { return nil }
        let tokenHash = SHA256.hex(Array(token.utf8))
        let now = clock.nowMilliseconds()
        if let entry = context.sessions.entry(tokenHash: tokenHash, now: now) {
            return (entry.userId, entry.roles)
        }
        let generation = context.sessions.generation
        let found: (String, Set<String>, Int64)? = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                guard let session = try transaction.session(tokenHash: tokenHash), session.expiresAt > now else {
                    return nil
                }
                let roles = try RoleService.roleNames(forUserId: session.userId, transaction: transaction)
                return (session.userId, roles, session.expiresAt)
            }
        }
        guard let (userId, roles, expiresAt) = found else { return nil }
        context.sessions.remember(
            tokenHash: tokenHash,
            SessionCache.Entry(
                userId: userId, roles: roles, sessionExpiresAt: expiresAt,
                validUntil: now + SessionCache.lifetimeMilliseconds),
            generation: generation)
        return (userId, roles)
    }
}
