package import BmobRealtime
package import Foundation
#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// What a ``BirdRealtime`` talks to, passed in so tests can use their own transports, time, randomness and HTTP:
/// the WebSocket transport factory, the sleep its timers use, the random source of its backoff, and the auth
/// endpoints' HTTP call.
///
/// ``current`` is a task-local: a client takes the environment of the task that creates it (``live`` outside
/// tests), so a test can run code written against the public API, unchanged, against its own server.
package struct BirdRealtimeEnvironment: Sendable {
    /// Which timer a sleep is for, so a manual clock can tell them apart.
    package typealias Timer = BirdConnectionStateMachine.Timer

    /// Makes a new transport for each connection attempt.
    package var makeTransport: @Sendable () -> any WebSocketTransport
    /// Waits `duration` for `timer`; throws when cancelled.
    package var sleep: @Sendable (_ duration: RealtimeDuration, _ timer: Timer) async throws -> Void
    /// A random number in `[0, 1]`, for the backoff's jitter.
    package var random: @Sendable () -> Double
    /// Performs an auth endpoint request; returns the body and the HTTP status.
    package var perform: @Sendable (URLRequest) async throws -> (Data, Int)
    /// Rewrites the edge URL a client computed (tests point region hosts at their server).
    package var edgeURL: @Sendable (URL) -> URL
    /// Rewrites an auth endpoint request before it is sent (tests point sample URLs at their server).
    package var authRequest: @Sendable (URLRequest) -> URLRequest
    /// Told about every client made in this environment (tests disconnect them at the end).
    package var clientMade: @Sendable (BirdRealtime) -> Void
    /// How long connecting and the opening handshake may take.
    package var connectTimeout: RealtimeDuration
    /// The reconnection backoff.
    package var backoff: BirdReconnectBackoff

    /// An environment; unset members are the live ones.
    package init(
        makeTransport: @escaping @Sendable () -> any WebSocketTransport = BirdRealtimeEnvironment.platformTransport,
        sleep: @escaping @Sendable (RealtimeDuration, Timer) async throws -> Void = RealtimeClientDefaults.sleep,
        random: @escaping @Sendable () -> Double = RealtimeClientDefaults.random,
        perform: @escaping @Sendable (URLRequest) async throws -> (Data, Int) = BirdRealtimeEnvironment.urlSession,
        edgeURL: @escaping @Sendable (URL) -> URL = { $0 },
        authRequest: @escaping @Sendable (URLRequest) -> URLRequest = { $0 },
        clientMade: @escaping @Sendable (BirdRealtime) -> Void = { _ in },
        connectTimeout: RealtimeDuration = .seconds(10),
        backoff: BirdReconnectBackoff = BirdReconnectBackoff(minimum: .seconds(1))
    ) {
        self.makeTransport = makeTransport
        self.sleep = sleep
        self.random = random
        self.perform = perform
        self.edgeURL = edgeURL
        self.authRequest = authRequest
        self.clientMade = clientMade
        self.connectTimeout = connectTimeout
        self.backoff = backoff
    }

    /// The live environment.
    package static let live = BirdRealtimeEnvironment()

    /// The environment new clients take.
    @TaskLocal package static var current = BirdRealtimeEnvironment.live

    /// The platform's WebSocket: `URLSessionWebSocketTask` on Apple platforms, BmobRealtime's POSIX client
    /// (OpenSSL for `wss`) elsewhere. Incoming messages are limited to 1 MiB.
    package static let platformTransport = RealtimeClientDefaults.platformTransport(
        maximumMessageSize: BirdConnectionStateMachine.maximumFrameBytes)

    /// `URLSession.shared`.
    package static let urlSession = RealtimeClientDefaults.urlSession
}
