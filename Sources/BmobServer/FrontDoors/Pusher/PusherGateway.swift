import BmobHTTP
import BmobIO
package import BmobStore
import BmobServerCodecs
import BmobWire

/// The channels door: Pusher protocol 7 (and 6, which pysher speaks) on `GET /app/{key}` beside the rest of the
/// server, with the event prefix `pusher` (Pusher's own client libraries) or `bird` (the BirdRealtime client),
/// chosen by the query's `prefix`. Connections are ``PusherSession``s; channel events fan out through the door's
/// ``RealtimeHub`` keyed by (app, channel, prefix), each event encoded once per prefix that has listeners.
///
/// Who is on which channel, and how events reach other server nodes, is the ``PusherChannelBus``'s: this node's
/// table on one node (SQLite), the store's channel state and log on several (PostgreSQL). Events for this node's
/// sockets are delivered here at once either way.
package final class PusherGateway: Sendable {
    let apps: AppDirectory
    let hub = RealtimeHub<PusherChannelKey, PusherSession>()
    /// This node's signed-in connections (terminate, server-to-user channels), and on one node its channel state.
    let table = PusherChannelTable()
    let bus: any PusherChannelBus
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

    /// The door; `cluster` is the store's channel state when the server shares its database with other nodes
    /// (PostgreSQL), `nil` on one node.
    package init(apps: AppDirectory, clock: ServerClock, logger: Logger, cluster: PostgresChannelCluster? = nil) {
        self.apps = apps
        self.bus = cluster.map { PusherStoreBus(cluster: $0, logger: logger) } ?? PusherLocalBus(table: table)
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

    /// Whether joins and leaves of `channel` announce its subscription count: a public or private channel of an
    /// app with ``AppChannels/subscriptionCount`` (presence channels have their members instead).
    func countsSubscriptions(_ applicationId: String, _ channel: PusherChannelName) -> Bool {
        channel.kind != .presence && channel.serverToUserId == nil
            && credentials(of: applicationId)?.subscriptionCount == true
    }

    /// Sends a channel webhook event of the app, when it has a webhook.
    func notify(_ applicationId: String, _ event: JSONValue) {
        webhooks.send(event, channels: credentials(of: applicationId))
    }

    /// Starts the bus (on several nodes: reading the other nodes' messages, beating).
    ///
    /// - Throws: when the store's channel state cannot be reached.
    package func start() async throws {
        try await bus.start(self)
    }

    /// Stops the bus: this node's connections leave the cluster's counts. Call once the connections are closed.
    package func stop() async {
        await bus.stop()
    }

    /// Delivers an app's message to this node's sockets: this node's own events, and those other nodes sent.
    func deliver(_ message: PusherClusterMessage, applicationId: String) {
        switch message {
        case .event(let channels, let name, let data, let excluded):
            for channel in channels {
                publishInternal(applicationId: applicationId, channel: channel, excluding: excluded) { messages in
                    messages.event(name, channel: channel, data: .string(data))
                }
            }
        case .clientEvent(let channel, let name, let data, let sender, let excluded):
            publishInternal(applicationId: applicationId, channel: channel, excluding: excluded) { messages in
                messages.clientEvent(name, channel: channel, data: data, senderUserId: sender)
            }
        case .memberAdded(let channel, let userId, let userInfo):
            publishInternal(applicationId: applicationId, channel: channel, excluding: nil) { messages in
                messages.memberAdded(channel: channel, userId: userId, userInfo: userInfo)
            }
        case .memberRemoved(let channel, let userId):
            publishInternal(applicationId: applicationId, channel: channel, excluding: nil) { messages in
                messages.memberRemoved(channel: channel, userId: userId)
            }
        case .terminate(let userId):
            for session in table.connections(of: .init(applicationId: applicationId, userId: userId)) {
                session.loop.execute { session.value.terminate() }
            }
        case .subscriptionCount(let channel, let count):
            publishInternal(applicationId: applicationId, channel: channel, excluding: nil) { messages in
                messages.subscriptionCount(channel: channel, count: count)
            }
        }
    }

    /// Delivers messages to this node's sockets at once and hands them to the bus for the other nodes, without
    /// waiting.
    func publish(_ applicationId: String, _ messages: [PusherClusterMessage]) {
        for message in messages { deliver(message, applicationId: applicationId) }
        bus.post(applicationId, messages)
    }

    /// Delivers messages to this node's sockets at once and returns once the bus has them for the other nodes.
    ///
    /// - Throws: when the other nodes cannot be reached (this node's sockets have them already).
    func broadcast(_ applicationId: String, _ messages: [PusherClusterMessage]) async throws {
        for message in messages { deliver(message, applicationId: applicationId) }
        try await bus.broadcast(applicationId, messages)
    }

    /// Announces what a join changed: to this node's other members (`member_added`; other nodes' hear it from the
    /// log) and to the app's webhook (`channel_occupied`, `member_added`), once for the cluster since only the node
    /// that made the change learns it.
    func announce(
        _ outcome: PusherJoinOutcome, applicationId: String, channel: PusherChannelName, member: PusherChannelData?,
        excluding socket: PusherSocketId?
    ) {
        if outcome.occupied {
            notify(applicationId, ["name": "channel_occupied", "channel": .string(channel.rawValue)])
        }
        if let count = outcome.subscriptionCount {
            deliver(.subscriptionCount(channel: channel, count: count), applicationId: applicationId)
        }
        if outcome.newMember, let member {
            publishInternal(applicationId: applicationId, channel: channel, excluding: socket) { messages in
                messages.memberAdded(channel: channel, userId: member.userId, userInfo: member.userInfo)
            }
            notify(applicationId, ["name": "member_added", "channel": .string(channel.rawValue), "user_id": .string(member.userId)])
        }
    }

    /// Announces what a leave changed, as ``announce(_:applicationId:channel:member:excluding:)`` does a join's.
    func announce(_ outcome: PusherLeaveOutcome, excluding socket: PusherSocketId?) {
        guard let channel = try? PusherChannelName(validating: outcome.channel) else { return }
        if let gone = outcome.goneUserId {
            if !outcome.deliveredThroughLog {
                publishInternal(applicationId: outcome.applicationId, channel: channel, excluding: socket) { messages in
                    messages.memberRemoved(channel: channel, userId: gone)
                }
            }
            notify(outcome.applicationId, ["name": "member_removed", "channel": .string(channel.rawValue), "user_id": .string(gone)])
        }
        if outcome.vacated {
            notify(outcome.applicationId, ["name": "channel_vacated", "channel": .string(channel.rawValue)])
        } else if let count = outcome.subscriptionCount {
            deliver(.subscriptionCount(channel: channel, count: count), applicationId: outcome.applicationId)
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
