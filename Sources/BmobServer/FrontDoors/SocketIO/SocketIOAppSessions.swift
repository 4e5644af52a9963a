import BmobIO

/// Realtime connections holding subscriptions of each app, across all loops, bounded per app. A connection
/// joins an app with its first subscription there and leaves it with its last one (or when it closes).
///
/// An app's key is public (every client embeds it), so without a bound one app's subscribers, or anyone
/// using its key, could take every realtime connection of a server that hosts several apps.
final class SocketIOAppSessions: Sendable {
    private let counts = LockedValue(BoundedCounts<String>())
    /// Connections one app may have.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more connection for `appId`.
    ///
    /// - Returns: `false`, counting nothing, when the app already has ``limit`` connections.
    func join(_ appId: String) -> Bool {
        counts.withLock { $0.admit(appId, limit: limit) }
    }

    /// Counts one connection less for `appId`.
    func leave(_ appId: String) {
        counts.withLock { $0.release(appId) }
    }
}
