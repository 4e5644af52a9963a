import BmobHTTP
import BmobIO
import BmobWire

/// The channels door: Pusher protocol 7 (and 6, which pysher speaks) on `GET /app/{key}` beside the rest of the
/// server, with the event prefix `pusher` (Pusher's own client libraries) or `bird` (the BirdRealtime client),
/// chosen by the query's `prefix`. Connections are ``PusherSession``s; channel events fan out through the door's
/// ``RealtimeHub`` keyed by (app, channel, prefix), each event encoded once per prefix that has listeners.
///
/// This node's channels only: channel events and presence do not yet cross to other server nodes.
package final class PusherGateway: Sendable {
    let apps: AppDirectory
    let hub = RealtimeHub<PusherChannelKey, PusherSession>()
    let table = PusherChannelTable()
    let webhooks: PusherWebhookSender
    private let webSocket: WebSocketConfiguration
    /// Seconds of silence after which clients ping (`activity_timeout`).
    let activityTimeoutSeconds = 120
    /// The largest frame a client may send.
    let maximumFrameBytes = PusherFrame.defaultMaximumBytes
    /// Client events one connection may send a second.
    let clientEventsPerSecond = 10
    /// Channels one connection may join.
    let maximumChannelsPerConnection = 100
    /// How long a connection of an app with ``AppChannels/authorizedConnections`` has to sign in.
    let signinTimeoutSeconds = 30

    package init(apps: AppDirectory, clock: ServerClock, logger: Logger) {
        self.apps = apps
        self.webhooks = PusherWebhookSender(concurrency: 32, clock: clock, logger: logger)
        // The server pings a connection silent for longer than clients wait between pings of their own (pysher
        // pings after 120 s), and drops it when nothing answers within 30 s.
        self.webSocket = WebSocketConfiguration(
            maximumMessageSize: 64 * 1024, maximumQueuedBytes: 1 << 20, pingInterval: .seconds(150),
            pongTimeout: .seconds(30))
    }

    package func register(in router: inout BmobRouter) {
        router.open(.get, "/app/:key") { [self] request in try upgrade(request) }
    }

    /// The app's channel credentials as they are now (settings change while the server runs).
    func credentials(of applicationId: String) -> AppChannels? {
        apps.openedRuntime(id: applicationId)?.app.channels
    }

    func key(_ applicationId: String, _ channel: PusherChannelName, _ prefix: PusherEventPrefix) -> PusherChannelKey {
        PusherChannelKey(applicationId: applicationId, channel: channel.rawValue, prefix: prefix)
    }

    /// Publishes a frame that `make` encodes for each prefix with listeners on the channel; callable from any
    /// thread.
    func publishInternal(
        applicationId: String, channel: PusherChannelName, excluding socket: PusherSocketId?,
        _ make: (PusherServerMessage) -> PusherFrame
    ) {
        for prefix in PusherEventPrefix.allCases {
            let key = key(applicationId, channel, prefix)
            guard hub.isHeard(key) else { continue }
            hub.publish(PusherDelivery(make(PusherServerMessage(prefix: prefix)), excluding: socket), to: key)
        }
    }

    /// Sends a channel webhook event of the app, when it has a webhook.
    func notify(_ applicationId: String, _ event: JSONValue) {
        webhooks.send(event, channels: credentials(of: applicationId))
    }

    /// Closes every connection signed in as `userId` (4009).
    func terminate(applicationId: String, userId: String) {
        for session in table.connections(of: .init(applicationId: applicationId, userId: userId)) {
            session.loop.execute { session.value.terminate() }
        }
    }

    /// The WebSocket of `/app/{key}`. Every refusal happens after the upgrade, as a protocol error frame and close
    /// code, which is what clients act on.
    private func upgrade(_ request: BmobRequest) throws -> HTTPResponse {
        let key = request.parameter("key")
        let runtime = apps.openedRuntime { $0.key == key }
        let prefix = PusherEventPrefix(rawValue: request.http.query("prefix") ?? "pusher")
        var refusal: PusherProtocolError?
        switch request.http.query("protocol") {
        case "7", "6": break
        case nil: refusal = PusherProtocolError(.invalidFrame, "no protocol version supplied", code: .noProtocolVersionSupplied, closesConnection: true)
        default: refusal = PusherProtocolError(.invalidFrame, "unsupported protocol version", code: .unsupportedProtocolVersion, closesConnection: true)
        }
        if prefix == nil {
            refusal = PusherProtocolError(.invalidFrame, "prefix must be pusher or bird", code: .pathNotFound, closesConnection: true)
        }
        if runtime == nil {
            refusal = PusherProtocolError(.invalidFrame, "App key \(String(key.prefix(64))) does not exist", code: .applicationDoesNotExist, closesConnection: true)
        }
        let applicationId = runtime?.app.applicationId ?? ""
        let refused = refusal
        do {
            return try HTTPResponse.webSocket(accepting: request.http.head, configuration: webSocket) { [self] in
                PusherSession(gateway: self, applicationId: applicationId, prefix: prefix ?? .pusher, refusal: refused)
            }
        } catch {
            return BmobAPIError.refusedUpgrade(error)
        }
    }
}
