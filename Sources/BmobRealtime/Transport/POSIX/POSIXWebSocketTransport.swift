#if canImport(Glibc) || canImport(Musl) || canImport(Android)
package import BmobWire
package import Foundation

/// The WebSocket client of every platform but Apple's, where FoundationNetworking has none: POSIX sockets
/// (`getaddrinfo`, a non-blocking connect with a timeout), BmobWire's handshake, frame codec and state
/// machine in the client role, and OpenSSL for `wss` (system trust store, SNI, host name verification).
///
/// Each connection runs on its own thread, which polls the socket and a wake-up pipe: it answers pings,
/// reassembles fragments, fails the connection with the right close code when the server breaks the
/// protocol, and after the closing handshake gives the server a moment to close TCP first.
///
/// Invariant for `@unchecked Sendable`: `queue`, `isUsed` and `closedEarly` are read and written only while
/// `lock` is held; `configuration` is immutable; the I/O thread owns everything else.
package final class POSIXWebSocketTransport: WebSocketTransport, @unchecked Sendable {
    /// Trust, sizes and timeouts of a connection.
    package struct Configuration: Sendable {
        /// Which certificates `wss` trusts.
        package var tls = WebSocketTLSConfiguration()
        /// The largest incoming message, over all its fragments; larger ones fail the connection with 1009.
        package var maximumMessageSize = 16 * 1024 * 1024
        /// Outgoing messages longer than this are sent as several frames.
        package var outgoingFragmentSize = 64 * 1024
        /// How long to wait for the server's close frame after sending ours.
        package var closeTimeout = Duration.seconds(5)
        /// How long to wait for the server to close TCP after the closing handshake.
        package var closeGracePeriod = Duration.seconds(1)

        /// The defaults.
        package init() {}
    }

    private let configuration: Configuration
    private let lock = NSLock()
    private var queue: WebSocketCommandQueue?
    private var isUsed = false
    private var closedEarly = false

    /// A transport that has not connected yet.
    ///
    /// - Parameter configuration: trust, sizes and timeouts.
    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Opens the connection on a new I/O thread; see ``WebSocketTransport/connect(to:headers:timeout:onEvent:)``.
    package func connect(
        to url: URL, headers: [HTTPField], timeout: RealtimeDuration,
        onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
    ) async throws {
        let endpoint = try WebSocketEndpoint(url: url)
        let queue = try lock.withLock { () throws(WebSocketTransportError) -> WebSocketCommandQueue in
            precondition(!isUsed, "a WebSocket transport connects once")
            isUsed = true
            guard !closedEarly else { throw WebSocketTransportError(.cancelled, "closed before connecting") }
            guard let queue = WebSocketCommandQueue() else {
                throw WebSocketTransportError(.connectionFailed, "cannot create a pipe")
            }
            self.queue = queue
            return queue
        }
        let configuration = self.configuration
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    let connection: POSIXWebSocketConnection
                    do {
                        connection = try POSIXWebSocketConnection.open(
                            endpoint: endpoint, headers: headers, timeout: timeout, configuration: configuration,
                            queue: queue)
                    } catch {
                        continuation.resume(throwing: error)
                        return
                    }
                    continuation.resume()
                    connection.run(onEvent: onEvent)
                }
                thread.name = "BmobRealtime WebSocket"
                thread.start()
            }
        } onCancel: {
            queue.push(.close(.goingAway, reason: ""))
        }
    }

    /// Queues a message for the I/O thread.
    package func send(_ message: WebSocketMessage) {
        lock.withLock { queue }?.push(.send(message))
    }

    /// Asks the I/O thread to start the closing handshake, or abandons a connection being opened.
    package func close(code: WebSocketCloseCode, reason: String) {
        precondition(code.isSendable, "close code \(code) may not be sent")
        let current = lock.withLock { () -> WebSocketCommandQueue? in
            if queue == nil { closedEarly = true }
            return queue
        }
        current?.push(.close(code, reason: reason))
    }
}
#endif
