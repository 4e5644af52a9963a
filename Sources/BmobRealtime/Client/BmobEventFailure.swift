import Foundation

/// Why a realtime connection attempt failed or a connection ended, as the socket.io client state machine
/// sees it. Apps receive it inside `BmobError.networkError(underlying:)` (or as `BmobError.notInitialized`,
/// `BmobError.timeout`, `BmobError.invalidParameter(reason:)`).
package enum BmobEventFailure: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// `Bmob.initialize(appKey:)` has not completed.
    case notInitialized
    /// The socket.io handshake (`GET /socket.io/1/`) failed.
    case handshakeFailed(String)
    /// The handshake or the WebSocket did not answer in time.
    case timedOut
    /// The server does not offer the `websocket` transport.
    case noWebSocketTransport
    /// The WebSocket could not be opened.
    case webSocketFailed(String)
    /// The WebSocket closed; `code` 1006 when it dropped without a closing handshake.
    case connectionClosed(code: UInt16, reason: String)
    /// The server sent the socket.io disconnect packet `0::`.
    case serverDisconnected
    /// The server sent a socket.io error packet `7::reason`.
    case serverError(String)
    /// No packet arrived within the heartbeat timeout.
    case heartbeatTimeout
    /// A packet from the server could not be read.
    case invalidPacket(String)
    /// A listen or cancel call had an empty table or objectId, or the wrong kind of action.
    case invalidSubscription(String)

    /// What happened, in a few words; safe to log.
    package var description: String {
        switch self {
        case .notInitialized: "Bmob is not initialized"
        case .handshakeFailed(let reason): "realtime handshake failed: \(reason)"
        case .timedOut: "realtime connection timed out"
        case .noWebSocketTransport: "realtime server does not offer the websocket transport"
        case .webSocketFailed(let reason): "realtime WebSocket failed: \(reason)"
        case .connectionClosed(let code, let reason):
            reason.isEmpty ? "realtime connection closed (\(code))" : "realtime connection closed (\(code)): \(reason)"
        case .serverDisconnected: "realtime server disconnected"
        case .serverError(let reason): "realtime server error: \(reason)"
        case .heartbeatTimeout: "realtime server stopped sending heartbeats"
        case .invalidPacket(let reason): "invalid realtime packet: \(reason)"
        case .invalidSubscription(let reason): "invalid subscription: \(reason)"
        }
    }

    /// Same as ``description``.
    package var errorDescription: String? { description }
}
