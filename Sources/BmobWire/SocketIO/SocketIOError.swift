/// Why a socket.io 0.9 packet, frame batch, handshake, path or Bmob realtime event was rejected.
///
/// Messages say what was wrong and what was expected, never the text a peer sent, so ``description`` is safe
/// to log. ``offset`` points at the problem, in UTF-8 bytes into the packet or handshake text (UTF-16 code units
/// for a frame batch, which counts its lengths in them).
package struct SocketIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, for callers that react differently to each.
    package enum Code: Sendable, Hashable {
        /// The packet does not start with a single digit `0`…`8` followed by `:`.
        case invalidType
        /// A `:` separating the type, id and endpoint is missing.
        case missingSeparator
        /// The id is not digits, or a `+` has no id before it.
        case invalidID
        /// An id (of the packet or of an acknowledged packet) is above ``SocketIOPacketID/maximum``.
        case idTooLarge
        /// A disconnect, heartbeat or noop packet carries data.
        case unexpectedData
        /// JSON data (of a json, event or ack packet, or of a realtime event's argument) does not parse.
        case invalidJSON
        /// Event data is not an object with a string `name` and an optional array `args`.
        case invalidEvent
        /// Ack data is not `<id>` or `<id>+<JSON array>`.
        case invalidAck
        /// A `\u{FFFD}<length>\u{FFFD}<packet>` batch is malformed.
        case invalidFrame
        /// A handshake answer is not `sid:heartbeatTimeout:closeTimeout:transports`.
        case invalidHandshake
        /// An event is not the one expected (`client_sub`/`client_unsub`, or `server_pub`).
        case unexpectedEvent
        /// A `client_sub`/`client_unsub` argument lacks a valid appKey, tableName, objectId or action.
        case invalidSubscription
        /// A `server_pub` argument is not a JSON object or a JSON string holding one.
        case invalidPublication
    }

    /// The kind of problem.
    package var code: Code
    /// What was wrong and what was expected, without the position.
    package var message: String
    /// Where the problem was found, when known.
    package var offset: Int?

    /// Creates an error with a code, a message and an optional offset.
    package init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// The message followed by the position, when known.
    package var description: String {
        if let offset { "\(message) at \(offset)" } else { message }
    }
}
