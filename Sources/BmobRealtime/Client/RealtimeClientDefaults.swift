package import Foundation
#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// The live members that the realtime clients' environments (`BirdRealtimeEnvironment`, `OnebaseClientEnvironment`)
/// share: the platform's transport, the sleep of their timers, the random source of their backoff and their HTTP
/// call. Each environment keeps its own members; this is where their live values are written once.
package enum RealtimeClientDefaults {
    /// A factory of the platform's WebSocket (``PlatformWebSocketTransport``) with the TLS trust of the system
    /// (Apple platforms) or the default CAs (elsewhere).
    ///
    /// - Parameter maximumMessageSize: the largest incoming message, the protocol's limit.
    /// - Returns: the factory.
    package static func platformTransport(maximumMessageSize: Int) -> @Sendable () -> any WebSocketTransport {
        { PlatformWebSocketTransport.make(maximumMessageSize: maximumMessageSize) }
    }

    /// Waits `duration` with `Task.sleep`, whichever timer it is for; throws when cancelled.
    ///
    /// - Parameters:
    ///   - duration: the wait.
    ///   - timer: the timer the wait is for (unused: a manual clock in tests tells them apart).
    package static func sleep<Timer>(_ duration: RealtimeDuration, _ timer: Timer) async throws {
        try await Task.sleep(nanoseconds: duration.sleepNanoseconds)
    }

    /// A random number in `[0, 1]`, for the backoff's jitter.
    ///
    /// - Returns: the number, from the system's generator.
    package static func random() -> Double {
        Double.random(in: 0...1)
    }

    /// Performs `request` with `URLSession.shared`; returns the body and the HTTP status (0 when the answer is not
    /// HTTP).
    package static let urlSession: @Sendable (URLRequest) async throws -> (Data, Int) = { request in
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}
