/// One Pusher WebSocket text frame: `{"event": String, "channel"?: String, "data"?: Any, "user_id"?: String}`
/// (`pusher.md` §1).
///
/// ``data`` is kept as the JSON value received: servers send it as a JSON-encoded *string* for most events and
/// as an object for `pusher:error`; clients send objects. ``dataString`` and ``dataObject`` read it either way.
/// Members other than the four are ignored when decoding and never written.
///
/// ## Topics
/// ### Decoding
/// - ``init(decoding:maximumBytes:)-(String,_)``
/// - ``init(decoding:maximumBytes:)-(Collection<UInt8>,_)``
/// ### Encoding
/// - ``encoded``
/// ### Reading data
/// - ``dataString``
/// - ``dataObject``
package struct PusherFrame: Sendable, Hashable {
    /// The default limit for frames from clients: 10 KiB, Pusher's documented message limit.
    package static let defaultMaximumBytes = 10_240
    /// Event names longer than this (in UTF-16 code units, as JavaScript counts) are refused.
    package static let maximumEventNameLength = 200

    /// The event name as on the wire, prefix included (`pusher:subscribe`, `client-typing`, `my-event`).
    package var event: String
    /// The channel the event is on, when it is on one.
    package var channel: PusherChannelName?
    /// The `data` member as received or to send; `nil` when absent (JSON `null` is ``JSONValue/null``).
    package var data: JSONValue?
    /// The sender's user id, on client events relayed on presence channels.
    package var userId: String?

    /// A frame from its parts.
    ///
    /// - Parameters:
    ///   - event: the wire event name.
    ///   - channel: the channel, if any.
    ///   - data: the data, if any.
    ///   - userId: the `user_id` member, if any.
    package init(event: String, channel: PusherChannelName? = nil, data: JSONValue? = nil, userId: String? = nil) {
        self.event = event
        self.channel = channel
        self.data = data
        self.userId = userId
    }

    /// Decodes a text frame.
    ///
    /// - Parameters:
    ///   - text: the frame's text.
    ///   - maximumBytes: the largest frame accepted, in UTF-8 bytes.
    /// - Throws: ``PusherProtocolError`` (see ``init(decoding:maximumBytes:)-(Collection<UInt8>,_)``).
    package init(decoding text: String, maximumBytes: Int = PusherFrame.defaultMaximumBytes) throws(PusherProtocolError)
    {
        try self.init(decoding: text.utf8, maximumBytes: maximumBytes)
    }

    /// Decodes a frame from its UTF-8 bytes.
    ///
    /// The frame must be at most `maximumBytes` long, parse as one JSON object (nesting bounded by
    /// ``JSONParser/maximumDepth``, strings valid UTF-8) and have a non-empty string `event` of at most
    /// ``maximumEventNameLength``; `channel`, when present and not `null`, must be a valid
    /// ``PusherChannelName``; `user_id`, when present and not `null`, a string.
    ///
    /// - Parameters:
    ///   - bytes: the frame's payload.
    ///   - maximumBytes: the largest frame accepted.
    /// - Throws: ``PusherProtocolError``: ``PusherProtocolError/Kind/frameTooLarge`` and an over-long event name
    ///   carry code 4301 (not closing); malformed frames carry no code.
    package init(decoding bytes: some Collection<UInt8>, maximumBytes: Int = PusherFrame.defaultMaximumBytes)
        throws(PusherProtocolError)
    {
        guard bytes.count <= maximumBytes else {
            throw PusherProtocolError(
                .frameTooLarge, "frame is larger than \(maximumBytes) bytes", code: .clientEventRejected)
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw PusherProtocolError(.invalidJSON, "frame is not valid JSON: \(error.message)")
        }
        guard case .object(let members) = value else {
            throw PusherProtocolError(.invalidFrame, "frame is not a JSON object")
        }
        guard let eventValue = members["event"] else {
            throw PusherProtocolError(.invalidFrame, "frame has no event")
        }
        guard case .string(let event) = eventValue else {
            throw PusherProtocolError(.invalidFrame, "event is not a string")
        }
        guard !event.isEmpty else { throw PusherProtocolError(.invalidEventName, "event name is empty") }
        guard event.utf16.count <= Self.maximumEventNameLength else {
            throw PusherProtocolError(
                .invalidEventName, "event name is longer than \(Self.maximumEventNameLength) characters",
                code: .clientEventRejected)
        }
        var channel: PusherChannelName?
        switch members["channel"] {
        case nil, .null?: break
        case .string(let name)?: channel = try PusherChannelName(validating: name)
        default: throw PusherProtocolError(.invalidFrame, "channel is not a string")
        }
        var userId: String?
        switch members["user_id"] {
        case nil, .null?: break
        case .string(let id)?: userId = id
        default: throw PusherProtocolError(.invalidFrame, "user_id is not a string")
        }
        self.init(event: event, channel: channel, data: members["data"], userId: userId)
    }

    /// The frame as compact JSON text: `event`, then `channel`, `data` and `user_id` when present, in that order.
    ///
    /// Object members inside ``data`` are written in sorted key order (``JSONValue/jsonString``); string data is
    /// written as a JSON string, so a payload forwarded as a string reaches clients byte for byte.
    package var encoded: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        bytes.append(contentsOf: #"{"event":"#.utf8)
        JSONValue.appendString(event, to: &bytes)
        if let channel {
            bytes.append(contentsOf: #","channel":"#.utf8)
            JSONValue.appendString(channel.rawValue, to: &bytes)
        }
        if let data {
            bytes.append(contentsOf: #","data":"#.utf8)
            data.appendJSON(to: &bytes)
        }
        if let userId {
            bytes.append(contentsOf: #","user_id":"#.utf8)
            JSONValue.appendString(userId, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The data as the JSON-encoded string servers send: a string as it is, any other value as its compact JSON
    /// text; `nil` when the frame has no data.
    package var dataString: String? {
        switch data {
        case nil: nil
        case .string(let text)?: text
        case let value?: value.jsonString
        }
    }

    /// The data as a JSON object: an object as it is, or a string holding a JSON object parsed; `nil` for
    /// anything else (no data, another type, a string that is not a JSON object).
    package var dataObject: [String: JSONValue]? {
        switch data {
        case .object(let members)?: return members
        case .string(let text)?:
            guard case .object(let members)? = try? JSONParser.parse(text) else { return nil }
            return members
        default: return nil
        }
    }
}
