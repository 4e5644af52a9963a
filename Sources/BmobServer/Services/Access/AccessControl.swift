/// Works out a request's ``AccessScope``: the master key, or the grantees of its session (user and roles).
/// Services take one and ask it once per operation; requests without a session token cost no store read.
package struct AccessControl: Sendable {
    private let resolve: @Sendable (AppContext) async throws -> AccessScope

    /// A control that asks `resolve` for requests without the master key.
    package init(resolve: @escaping @Sendable (AppContext) async throws -> AccessScope) {
        self.resolve = resolve
    }

    /// The scope of `context`: ``AccessScope/master`` for the master key, ``AccessScope/anonymous`` without a
    /// session token, else what the resolver says.
    package func scope(_ context: AppContext) async throws -> AccessScope {
        if context.isMaster { return .master }
        // No session, no grantees beyond the public: answered here, without the resolver's chain of calls.
        guard let token = context.sessionToken, !token.isEmpty else { return .anonymous }
        return try await resolve(context)
    }

    /// Every caller without the master key is anonymous (`*` only).
    package static let anonymousOnly = AccessControl { _ in .anonymous }
}
