/// Where a client keeps its auth token between runs.
///
/// The default is `OnebaseKeychainTokenStore` on Apple platforms and ``OnebaseFileTokenStore`` (a file only its
/// owner can read) elsewhere. Pass your own to ``OnebaseClient/init(url:offlineDirectory:tokenStore:)`` to keep the
/// token somewhere else. Calls come from the client's own thread, one at a time per client, and should return
/// quickly.
public protocol OnebaseTokenStore: Sendable {
    /// The stored token, if there is one.
    ///
    /// - Returns: the token, or `nil`.
    func loadToken() -> String?

    /// Stores `token`, replacing any earlier one.
    ///
    /// - Parameter token: the token.
    /// - Throws: the store's error when it cannot keep the token.
    func saveToken(_ token: String) throws

    /// Forgets the stored token, if any.
    func deleteToken()
}
