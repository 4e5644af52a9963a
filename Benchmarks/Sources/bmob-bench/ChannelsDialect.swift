import BmobWire

/// The channels fan-out (`bmob-bench channel-fanout`, Pusher protocol 7, `pusher.md` §1–§3, §7): the upgrade to
/// `/app/{key}?protocol=7` at once, `pusher:connection_established`, a `pusher:subscribe` to one public channel
/// answered by `pusher_internal:subscription_succeeded`, and signed HTTP API publishes
/// (`POST /apps/{id}/events`) whose data is the string `{"seq":n,"sentAt":ns}`, forwarded byte for byte to
/// every subscriber.
struct ChannelsDialect: FanoutDialect {
    /// The app's channel credentials (`bmob apps create --channels-app-id … --channels-key …
    /// --channels-secret …`).
    let appId: String
    let key: String
    let secret: String
    /// The public channel every connection subscribes to.
    let channel: String
    /// The published event's name.
    let event: String
    let subscribeFrame: [UInt8]
    let heartbeatReply = Array(#"{"event":"pusher:pong","data":{}}"#.utf8)
    /// `"fanout"` with its closing quote: what follows ``Self/eventHead`` in a published event's frame.
    private let eventName: [UInt8]

    /// How every server frame begins (`PusherFrame.encoded` writes `event` first).
    private static let eventHead = Array(#"{"event":""#.utf8)

    /// - Parameters:
    ///   - appId: the app's channels app id.
    ///   - key: its channels key.
    ///   - secret: its channels secret.
    ///   - channel: a public channel name that needs no JSON escaping.
    ///   - event: an event name that needs no JSON escaping and is not a protocol event.
    init(appId: String, key: String, secret: String, channel: String, event: String) {
        self.appId = appId
        self.key = key
        self.secret = secret
        self.channel = channel
        self.event = event
        subscribeFrame = Array(#"{"event":"pusher:subscribe","data":{"channel":"\#(channel)"}}"#.utf8)
        eventName = Array("\(event)\"".utf8)
    }

    func handshakeRequest(hostHeader: String) -> String? {
        nil
    }

    func upgradeTarget(session: String?) -> String {
        "/app/\(key)?protocol=7&client=bmob-bench&version=1.0"
    }

    func classify(_ payload: UnsafeRawBufferPointer) -> FanoutPacket {
        guard Self.matches(Self.eventHead, in: payload, at: 0) else { return .other }
        let name = Self.eventHead.count
        if Self.matches(eventName, in: payload, at: name) {
            guard let seq = FanoutPacket.number(after: "seq", in: payload),
                let sentAt = FanoutPacket.number(after: "sentAt", in: payload)
            else { return .publicationWithoutFields }
            return .publication(seq: Int(seq), sentAt: sentAt)
        }
        if Self.matches(Self.connectionEstablished, in: payload, at: name) { return .ready }
        if Self.matches(Self.subscriptionSucceeded, in: payload, at: name) { return .ack(id: 1) }
        if Self.matches(Self.ping, in: payload, at: name) { return .heartbeat }
        if Self.matches(Self.pong, in: payload, at: name) { return .ignored }
        if Self.matches(Self.error, in: payload, at: name) {
            return .error(String(String(decoding: payload, as: UTF8.self).prefix(300)))
        }
        return .other
    }

    private static let connectionEstablished = Array(#"pusher:connection_established""#.utf8)
    private static let subscriptionSucceeded = Array(#"pusher_internal:subscription_succeeded""#.utf8)
    private static let ping = Array(#"pusher:ping""#.utf8)
    private static let pong = Array(#"pusher:pong""#.utf8)
    private static let error = Array(#"pusher:error""#.utf8)

    private static func matches(_ bytes: [UInt8], in payload: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard payload.count - offset >= bytes.count else { return false }
        for index in bytes.indices where payload[offset + index] != bytes[index] { return false }
        return true
    }

    /// A signed `POST /apps/{id}/events` (`pusher.md` §7): `auth_key`, `auth_timestamp` (now), `auth_version`,
    /// `body_md5` and `auth_signature`, signed as Pusher's server libraries sign it. Signing takes microseconds,
    /// within the measured latency as a publisher's own signing would be.
    func publishRequest(seq: Int, sentAt: UInt64, hostHeader: String) -> String {
        let data = #"{\"seq\":\#(seq),\"sentAt\":\#(sentAt)}"#
        let body = #"{"name":"\#(event)","channels":["\#(channel)"],"data":"\#(data)"}"#
        let path = "/apps/\(appId)/events"
        var query: [(name: String, value: String)] = [
            ("auth_key", key), ("auth_timestamp", String(wallMilliseconds() / 1000)), ("auth_version", "1.0"),
            ("body_md5", PusherSignatures.bodyMD5(Array(body.utf8))),
        ]
        query.append(
            ("auth_signature", PusherSignatures.apiSignature(secret: secret, method: "POST", path: path, query: query)))
        // Every value is hex, digits or `1.0`, or the key (visible ASCII, checked by the options): nothing to escape.
        let target = path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "POST \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
