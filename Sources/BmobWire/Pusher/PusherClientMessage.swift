/// A message a client sends, decoded from a ``PusherFrame`` on a connection with a ``PusherEventPrefix``
/// (`pusher.md` §2.2, §3.2, §5, §6).
///
/// `data` may be an object or a string holding a JSON object (``PusherFrame/dataObject``). The strings that
/// signatures cover, `channel_data` and `user_data`, are kept **exactly as received**: they are the JSON
/// string's content, never re-serialized, so the server verifies the signature over the bytes the auth endpoint
/// signed (Python's `json.dumps` spacing included).
///
/// Decoding checks shape only. The server still decides whether a subscription's `auth` is needed and valid,
/// whether the socket may subscribe to a `#server-to-user-` channel, and whether a client event's channel allows
/// client events (``PusherChannelName/allowsClientEvents``) and the sender is subscribed to it.
package enum PusherClientMessage: Sendable, Hashable {
    /// `{prefix}:ping`; any data (pusher-js sends `{}`, pysher `""`). Answer with ``PusherServerMessage/pong()``.
    case ping
    /// `{prefix}:pong`, the answer to a server ping.
    case pong
    /// `{prefix}:subscribe`: the channel, its `auth` (`nil` when absent or `""`, as pusher-js sends for public
    /// channels) and, for presence, the exact `channel_data` string.
    case subscribe(channel: PusherChannelName, auth: String?, channelData: String?)
    /// `{prefix}:unsubscribe`; it gets no reply.
    case unsubscribe(channel: PusherChannelName)
    /// `{prefix}:signin`: the `auth` and the exact `user_data` string.
    case signin(auth: String, userData: String)
    /// A `client-` event on a channel, with its data as received (`nil` when absent).
    case clientEvent(name: String, channel: PusherChannelName, data: JSONValue?)

    /// Decodes a client message from a frame's text.
    ///
    /// - Parameters:
    ///   - text: the frame's text.
    ///   - prefix: the connection's event prefix.
    ///   - maximumBytes: the largest frame accepted.
    /// - Throws: ``PusherProtocolError`` from ``PusherFrame/init(decoding:maximumBytes:)-(String,_)`` or
    ///   ``init(frame:prefix:)``.
    package init(
        decoding text: String, prefix: PusherEventPrefix, maximumBytes: Int = PusherFrame.defaultMaximumBytes
    ) throws(PusherProtocolError) {
        let frame = try PusherFrame(decoding: text, maximumBytes: maximumBytes)
        try self.init(frame: frame, prefix: prefix)
    }

    /// Reads the client message in a decoded frame.
    ///
    /// - Parameters:
    ///   - frame: the frame.
    ///   - prefix: the connection's event prefix; protocol events in another prefix are not recognised.
    /// - Throws: ``PusherProtocolError``, none of them closing the connection:
    ///   ``PusherProtocolError/Kind/unknownEvent`` for a protocol or internal event clients may not send,
    ///   ``PusherProtocolError/Kind/invalidEventName`` for an event that is neither a protocol event nor
    ///   `client-`, ``PusherProtocolError/Kind/invalidData`` for missing or mistyped members,
    ///   ``PusherProtocolError/Kind/invalidChannelName`` and ``PusherProtocolError/Kind/unsupportedChannel`` for
    ///   the channel, and ``PusherProtocolError/Kind/invalidFrame`` for a client event without a channel.
    package init(frame: PusherFrame, prefix: PusherEventPrefix) throws(PusherProtocolError) {
        switch prefix.classify(frame.event) {
        case .protocolEvent("ping"):
            self = .ping
        case .protocolEvent("pong"):
            self = .pong
        case .protocolEvent("subscribe"):
            let data = try Self.object(frame, "subscribe")
            let channel = try Self.channel(in: data)
            let auth = try Self.optionalString("auth", in: data)
            let channelData = try Self.optionalString("channel_data", in: data)
            self = .subscribe(channel: channel, auth: auth?.isEmpty == true ? nil : auth, channelData: channelData)
        case .protocolEvent("unsubscribe"):
            let data = try Self.object(frame, "unsubscribe")
            let channel = try Self.channel(in: data)
            self = .unsubscribe(channel: channel)
        case .protocolEvent("signin"):
            let data = try Self.object(frame, "signin")
            guard let auth = try Self.optionalString("auth", in: data), !auth.isEmpty else {
                throw PusherProtocolError(.invalidData, "signin needs a string auth")
            }
            guard let userData = try Self.optionalString("user_data", in: data), !userData.isEmpty else {
                throw PusherProtocolError(.invalidData, "signin needs a string user_data")
            }
            self = .signin(auth: auth, userData: userData)
        case .protocolEvent, .internalEvent:
            throw PusherProtocolError(.unknownEvent, "unknown \(prefix.rawValue) event")
        case .clientEvent(let name):
            guard let channel = frame.channel else {
                throw PusherProtocolError(.invalidFrame, "a client event needs a channel")
            }
            self = .clientEvent(name: name, channel: channel, data: frame.data)
        case .applicationEvent:
            throw PusherProtocolError(
                .invalidEventName, "clients may only send \(prefix.protocolPrefix) events and client- events")
        }
    }

    /// The frame's data as an object.
    private static func object(_ frame: PusherFrame, _ event: String) throws(PusherProtocolError) -> [String: JSONValue]
    {
        guard let members = frame.dataObject else {
            throw PusherProtocolError(.invalidData, "\(event) data must be a JSON object")
        }
        return members
    }

    /// The validated `channel` member of subscribe or unsubscribe data.
    private static func channel(in data: [String: JSONValue]) throws(PusherProtocolError) -> PusherChannelName {
        guard case .string(let name)? = data["channel"] else {
            throw PusherProtocolError(.invalidData, "data needs a string channel")
        }
        return try PusherChannelName(validating: name)
    }

    /// The string member `key`, `nil` when absent or `null`.
    private static func optionalString(_ key: String, in data: [String: JSONValue]) throws(PusherProtocolError)
        -> String?
    {
        switch data[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw PusherProtocolError(.invalidData, "\(key) must be a string")
        }
    }
}
