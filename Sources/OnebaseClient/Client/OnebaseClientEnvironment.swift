package import BmobRealtime
import BmobWire
package import Foundation
#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// What an ``OnebaseClient`` talks to, passed in so tests can use their own transports, time, randomness and HTTP.
///
/// ``current`` is a task-local: a client takes the environment of the task that creates it (``live`` outside tests),
/// so a test can run code written against the public API, unchanged, against its own server.
package struct OnebaseClientEnvironment: Sendable {
    /// Which timer a sleep is for, so a manual clock can tell them apart.
    package typealias Timer = OnebaseSyncMachine.Timer

    /// Makes a new transport for each connection attempt.
    package var makeTransport: @Sendable () -> any WebSocketTransport
    /// Waits `duration` for `timer`; throws when cancelled.
    package var sleep: @Sendable (_ duration: RealtimeDuration, _ timer: Timer) async throws -> Void
    /// A random number in `[0, 1]`, for the backoff's jitter.
    package var random: @Sendable () -> Double
    /// Performs an HTTP request; returns the body and the status.
    package var perform: @Sendable (URLRequest) async throws -> (Data, Int)
    /// The clock (for `Connect`'s `clientTs` and the offline records' times).
    package var now: @Sendable () -> Date
    /// Rewrites the URL an app passed (tests point the seed's sample URLs at their server).
    package var url: @Sendable (String) -> String
    /// Rewrites the offline directory an app passed (tests keep samples' files in a temporary folder).
    package var offlineDirectory: @Sendable (URL?) -> URL?
    /// Makes the token store when the app passes none.
    package var makeTokenStore: (@Sendable (_ folder: URL) -> any OnebaseTokenStore)?
    /// How long connecting and the opening handshake may take.
    package var connectTimeout: RealtimeDuration
    /// The reconnection backoff.
    package var backoff: OnebaseReconnectBackoff

    /// An environment; unset members are the live ones.
    package init(
        makeTransport: @escaping @Sendable () -> any WebSocketTransport = OnebaseClientEnvironment.platformTransport,
        sleep: @escaping @Sendable (RealtimeDuration, Timer) async throws -> Void = RealtimeClientDefaults.sleep,
        random: @escaping @Sendable () -> Double = RealtimeClientDefaults.random,
        perform: @escaping @Sendable (URLRequest) async throws -> (Data, Int) = OnebaseClientEnvironment.urlSession,
        now: @escaping @Sendable () -> Date = { Date() },
        url: @escaping @Sendable (String) -> String = { $0 },
        offlineDirectory: @escaping @Sendable (URL?) -> URL? = { $0 },
        makeTokenStore: (@Sendable (URL) -> any OnebaseTokenStore)? = nil,
        connectTimeout: RealtimeDuration = .seconds(10),
        backoff: OnebaseReconnectBackoff = OnebaseReconnectBackoff(initial: .seconds(1))
    ) {
        self.makeTransport = makeTransport
        self.sleep = sleep
        self.random = random
        self.perform = perform
        self.now = now
        self.url = url
        self.offlineDirectory = offlineDirectory
        self.makeTokenStore = makeTokenStore
        self.connectTimeout = connectTimeout
        self.backoff = backoff
    }

    /// The live environment.
    package static let live = OnebaseClientEnvironment()

    /// The environment new clients take.
    @TaskLocal package static var current = OnebaseClientEnvironment.live

    /// The platform's WebSocket: `URLSessionWebSocketTask` on Apple platforms, BmobRealtime's POSIX client (OpenSSL
    /// for `wss`) elsewhere. Incoming messages are limited to the sync protocol's 1 MiB.
    package static let platformTransport = RealtimeClientDefaults.platformTransport(
        maximumMessageSize: SyncLimits().maximumMessageBytes)

    /// `URLSession.shared`.
    package static let urlSession = RealtimeClientDefaults.urlSession
}
