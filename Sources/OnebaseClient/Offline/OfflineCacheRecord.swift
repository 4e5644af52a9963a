/// One cached query result on disk (`sync.md` §2.6): the server's value for a query token, when it was saved, and
/// the user it was read as (`""` for a signed-out user).
struct OfflineCacheRecord: Codable, Sendable, Hashable {
    /// The query's canonical token (``OnebaseQueryToken/canonical``).
    var token: String
    /// The server's result.
    var value: OnebaseValue
    /// Seconds since 1970; the oldest records are evicted first.
    var savedAt: Double
    /// The confirmed user the result was read as.
    var ownerUserId: String
}
