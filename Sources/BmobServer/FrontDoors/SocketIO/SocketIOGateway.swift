import BmobHTTP
package import BmobIO
package import BmobWire

/// Bmob's realtime data protocol (socket.io 0.9 over WebSocket) on the server's port:
/// `GET /socket.io/1/` hands out a session id, `GET /socket.io/1/websocket/<sid>` upgrades to a WebSocket
/// that a ``SocketIOSession`` serves.
///
/// Sessions subscribe to topics in the door's own ``RealtimeHub``; for each app they subscribe in, the door's
/// ``SocketIOPublisher`` takes an interest in the app's journal feed (``RealtimeFeeds``) and publishes what
/// the public may see of each change, encoded once as a frame. ``publish(_:)`` puts server-side events on the
/// same path.
package final class SocketIOGateway: Sendable {
    /// The door's subscribers, by topic.
    let hub: RealtimeHub<SocketIOTopic, SocketIOSession>
    /// The server's journal feeds.
    let feeds: RealtimeFeeds
    /// Turns changes into frames for ``hub``.
    let publisher: SocketIOPublisher
    let apps: AppDirectory
    let sessions: SocketIOSessionTable
    /// Connections subscribed to each app, bounded per app.
    let appSessions: SocketIOAppSessions
    /// Seconds between heartbeats the server sends.
    let heartbeatSeconds: Int
    /// Seconds of silence after which a client is dropped.
    let timeoutSeconds: Int
    let webSocket: WebSocketConfiguration
    /// Subscriptions one connection may hold; more are refused with an error packet.
    static let maximumSubscriptionsPerSession = 1000

    /// A gateway whose events come from `feeds`; handshake ids expire on `clock`, the loops' clock, and are
    /// signed with `handshakeKey` (``AppRegistry/sharedSecret(_:)``), so that any node of the deployment accepts
    /// them, by the expiry on `serverClock`.
    package init(
        feeds: RealtimeFeeds, apps: AppDirectory, configuration: ServerConfiguration, logger: Logger,
        clock: EventLoopClock = .system, handshakeKey: [UInt8]? = nil, serverClock: ServerClock = .system
    ) {
        let hub = RealtimeHub<SocketIOTopic, SocketIOSession>()
        self.hub = hub
        self.feeds = feeds
        self.publisher = SocketIOPublisher(hub: hub, logger: logger)
        self.apps = apps
        self.heartbeatSeconds = min(configuration.realtimeHeartbeatSeconds, max(1, configuration.realtimeTimeoutSeconds - 1))
        self.timeoutSeconds = configuration.realtimeTimeoutSeconds
        self.sessions = SocketIOSessionTable(
            lifetimeSeconds: configuration.realtimeHandshakeLifetimeSeconds,
            perClientLimit: configuration.realtimeMaxHandshakesPerAddress, now: { clock.now },
            signingKey: handshakeKey, wallClock: { serverClock.nowSeconds })
        self.appSessions = SocketIOAppSessions(limit: configuration.realtimeMaxSessionsPerApp)
        // socket.io heartbeats already prove the client alive; WebSocket pings cover clients that stop
        // answering them at the TCP level. Messages are small subscription requests.
        self.webSocket = WebSocketConfiguration(
            maximumMessageSize: 64 * 1024,
            maximumQueuedBytes: configuration.realtimeMaxQueuedBytes,
            pingInterval: .seconds(configuration.realtimeTimeoutSeconds),
            pongTimeout: .seconds(configuration.realtimeTimeoutSeconds))
    }

    /// Sends a server-side event to the subscribers of its topic (app, table, action and, for row actions,
    /// object), beside the events that come from the journal; callable from any thread. Its data goes out as
    /// given, without the visibility checks journal events get.
    ///
    /// - Returns: whether anyone subscribes to the topic.
    @discardableResult
    package func publish(_ publication: BmobRealtimePublication) -> Bool {
        publisher.publish(publication)
    }

    /// Adds the two routes.
    package func register(in router: inout BmobRouter) {
        router.open(.get, "/socket.io/1") { [self] request in try handshake(request) }
        router.open(.get, "/socket.io/1/websocket/:sid") { [self] request in try upgrade(request) }
    }

    /// `sid:heartbeatTimeout:closeTimeout:websocket`, as text. Browsers call it cross-origin; any origin may,
    /// without credentials: subscribers are anonymous and need no cookies, and a credentialed answer would
    /// let any site read responses made with the visitor's cookies.
    private func handshake(_ request: BmobRequest) throws -> HTTPResponse {
        let sid: String
        do {
            sid = try sessions.issue(for: request.http.remoteAddress.map(ClientAddress.init))
        } catch .clientFull {
            throw BmobAPIError(
                .unavailable, "too many unused realtime handshakes from this address; open their WebSockets or try again later",
                status: .serviceUnavailable)
        } catch .tableFull {
            throw BmobAPIError(.unavailable, "too many realtime handshakes waiting; try again later", status: .serviceUnavailable)
        }
        let answer = SocketIOHandshake(sid: sid, heartbeatTimeout: timeoutSeconds, closeTimeout: timeoutSeconds)
        var response = HTTPResponse.text(answer.encoded)
        response.headers.add(name: "Access-Control-Allow-Origin", value: "*")
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
    }

    /// The WebSocket for a session id from ``handshake(_:)``. Any `Origin` is accepted: subscribers are
    /// anonymous and only see what the public may read.
    private func upgrade(_ request: BmobRequest) throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try HTTPResponse.webSocket(accepting: request.http.head, configuration: webSocket) { [self] in
                SocketIOSession(gateway: self)
            }
        } catch {
            return BmobAPIError.refusedUpgrade(error)
        }
        guard let sid = request.parameters["sid"], SocketIOHandshake.isValidSID(sid), sessions.claim(sid) else {
            return BmobAPIError.body(
                status: .forbidden, code: 403,
                message: "unknown, expired or already used socket.io session id; handshake at /socket.io/1/ first")
        }
        return response
    }
}
