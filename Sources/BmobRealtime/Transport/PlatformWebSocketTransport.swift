/// The platform's WebSocket client, for the SDK's realtime clients (`BmobEvent`, `BirdRealtime`, `OnebaseClient`):
/// `URLSessionWebSocketTask` on Apple platforms, ``POSIXWebSocketTransport`` (OpenSSL for `wss`) elsewhere.
package enum PlatformWebSocketTransport {
    /// A new transport, for one connection.
    ///
    /// - Parameters:
    ///   - maximumMessageSize: the largest incoming message.
    ///   - tls: the CAs the POSIX transport trusts for `wss` (Apple platforms use the system's trust).
    /// - Returns: the transport.
    package static func make(
        maximumMessageSize: Int = 16 * 1024 * 1024, tls: WebSocketTLSConfiguration = WebSocketTLSConfiguration()
    ) -> any WebSocketTransport {
        #if canImport(Darwin)
            URLSessionWebSocketTransport(maximumMessageSize: maximumMessageSize)
        #else
            var configuration = POSIXWebSocketTransport.Configuration()
            configuration.maximumMessageSize = maximumMessageSize
            configuration.tls = tls
            return POSIXWebSocketTransport(configuration: configuration)
        #endif
    }
}
