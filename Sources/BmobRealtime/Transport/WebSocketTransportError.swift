import Foundation

/// Why a WebSocket connection could not be opened or ended badly. ``description`` names the step and the
/// system's reason, never message contents, so it is safe to log. The SDK hands it to apps inside
/// `BmobError.networkError(underlying:)`.
package struct WebSocketTransportError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The kind of failure.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// The name of the code.
        package var description: String { name }

        /// The URL is not `ws://` or `wss://` with a host.
        package static let invalidURL = Code("invalidURL")
        /// The host name did not resolve.
        package static let resolutionFailed = Code("resolutionFailed")
        /// No TCP connection could be made.
        package static let connectionFailed = Code("connectionFailed")
        /// Connecting, the opening handshake or the closing handshake took too long.
        package static let timedOut = Code("timedOut")
        /// TLS failed: the certificate was not trusted or did not match the host, or the handshake broke.
        package static let tlsFailed = Code("tlsFailed")
        /// The server did not accept the WebSocket upgrade.
        package static let handshakeRejected = Code("handshakeRejected")
        /// The server broke the WebSocket protocol; the connection was failed with a close code.
        package static let protocolViolation = Code("protocolViolation")
        /// The connection dropped without a closing handshake.
        package static let connectionLost = Code("connectionLost")
        /// The connection was closed while it was being opened.
        package static let cancelled = Code("cancelled")
    }

    /// The kind of failure.
    package var code: Code
    /// What happened, in a few words.
    package var message: String
    /// The HTTP status of a rejected upgrade, when there was one.
    package var httpStatus: Int?

    /// An error.
    ///
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: what happened.
    ///   - httpStatus: the HTTP status of a rejected upgrade.
    package init(_ code: Code, _ message: String, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
    }

    /// The code and message, e.g. `tlsFailed: certificate verify failed`.
    package var description: String { "\(code): \(message)" }

    /// Same as ``description``.
    package var errorDescription: String? { "WebSocket \(description)" }
}
