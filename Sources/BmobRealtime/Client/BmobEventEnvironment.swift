package import BmobCore
package import BmobWire
package import Foundation
#if canImport(FoundationNetworking)
package import FoundationNetworking
#endif

/// What a ``BmobEvent`` talks to, passed in so tests can use their own app, transports, handshake and
/// delays: the app key and realtime address (from the SDK client), a factory of WebSocket transports, the
/// socket.io handshake request, the clock for `?t=`, and the timing rules.
package struct BmobEventEnvironment: Sendable {
    /// The Application ID and the realtime address for a new attempt; waits for an initialize in progress.
    package var resolveApp: @Sendable () async throws(BmobEventFailure) -> (appKey: String, address: BmobIOAddress)
    /// Makes a new transport for each connection attempt.
    package var makeTransport: @Sendable () -> any WebSocketTransport
    /// Performs `GET <url>` and returns the parsed socket.io handshake.
    package var fetchHandshake: @Sendable (_ url: URL, _ timeout: RealtimeDuration) async throws(BmobEventFailure) -> SocketIOHandshake
    /// Milliseconds since 1970, for the handshake's cache-busting `t`.
    package var milliseconds: @Sendable () -> Int64
    /// The wait before each reconnection attempt.
    package var reconnectDelay: RealtimeDuration
    /// How long the handshake and the WebSocket's opening may each take.
    package var connectTimeout: RealtimeDuration

    /// An environment.
    ///
    /// - Parameters:
    ///   - resolveApp: the app key and realtime address of each attempt.
    ///   - makeTransport: the transport factory.
    ///   - fetchHandshake: the handshake request.
    ///   - milliseconds: the clock.
    ///   - reconnectDelay: the reconnection wait; 5 seconds.
    ///   - connectTimeout: the connection timeout; 10 seconds.
    package init(
        resolveApp: @escaping @Sendable () async throws(BmobEventFailure) -> (appKey: String, address: BmobIOAddress),
        makeTransport: @escaping @Sendable () -> any WebSocketTransport,
        fetchHandshake: @escaping @Sendable (URL, RealtimeDuration) async throws(BmobEventFailure) -> SocketIOHandshake,
        milliseconds: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
        reconnectDelay: RealtimeDuration = .seconds(5),
        connectTimeout: RealtimeDuration = .seconds(10)
    ) {
        self.resolveApp = resolveApp
        self.makeTransport = makeTransport
        self.fetchHandshake = fetchHandshake
        self.milliseconds = milliseconds
        self.reconnectDelay = reconnectDelay
        self.connectTimeout = connectTimeout
    }

    /// The SDK's environment: the given client's app and realtime address, the platform's transport, the
    /// handshake over URLSession.
    ///
    /// - Parameters:
    ///   - client: the SDK client; the shared one by default.
    ///   - tls: the CAs the Linux transport trusts for `wss` (Apple platforms use the system's trust).
    ///   - reconnectDelay: the reconnection wait; 5 seconds.
    /// - Returns: the environment.
    package static func live(
        client: BmobClient = .shared, tls: WebSocketTLSConfiguration = WebSocketTLSConfiguration(),
        reconnectDelay: RealtimeDuration = .seconds(5)
    ) -> BmobEventEnvironment {
        BmobEventEnvironment(
            resolveApp: { () throws(BmobEventFailure) in
                let session: BmobSession
                do {
                    session = try await client.requireSession()
                } catch {
                    throw .notInitialized
                }
                return (session.appKey, client.realtimeAddress)
            },
            makeTransport: { PlatformWebSocketTransport.make(tls: tls) },
            fetchHandshake: { url, timeout throws(BmobEventFailure) in
                try await fetchSocketIOHandshake(url: url, timeout: timeout)
            },
            reconnectDelay: reconnectDelay)
    }

    /// The handshake's `GET url`, with the SDK's `User-Agent` (`BmobUserAgent.product`).
    ///
    /// - Parameters:
    ///   - url: the handshake URL.
    ///   - timeout: how long the request may take.
    /// - Returns: the request.
    package static func handshakeRequest(url: URL, timeout: RealtimeDuration) -> URLRequest {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout.timeInterval)
        request.httpMethod = "GET"
        request.setValue(BmobUserAgent.product, forHTTPHeaderField: "User-Agent")
        return request
    }

    /// `GET url` with URLSession; a 200 answer's body is the handshake text.
    ///
    /// - Parameters:
    ///   - url: the handshake URL.
    ///   - timeout: how long the request may take.
    /// - Returns: the parsed handshake.
    /// - Throws: ``BmobEventFailure/timedOut`` or ``BmobEventFailure/handshakeFailed(_:)``.
    package static func fetchSocketIOHandshake(url: URL, timeout: RealtimeDuration) async throws(BmobEventFailure) -> SocketIOHandshake {
        let request = handshakeRequest(url: url, timeout: timeout)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch let error as URLError where error.code == .timedOut {
            throw .timedOut
        } catch {
            throw .handshakeFailed(error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw .handshakeFailed("HTTP status \(status)") }
        do {
            return try SocketIOHandshake(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw .handshakeFailed(error.description)
        }
    }
}
