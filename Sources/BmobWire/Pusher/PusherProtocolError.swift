/// Why a Pusher frame, message, name, signature or presence change was refused, and what to tell the peer.
///
/// Messages say what was wrong and what was expected, never a name, key, signature or payload the peer sent,
/// so ``description`` is safe to log and ``message`` safe to send back in a `pusher:error` frame.
///
/// The server turns an error into `pusher:error {"code": code, "message": message}`
/// (``PusherServerMessage/error(_:)``) and, when ``closesConnection`` is true, then closes the WebSocket with
/// ``code``. Errors with a `nil` ``code`` are connection-level and non-fatal (`"code": null`), as real Pusher
/// answers a bad subscription; the connection stays open. HTTP API errors map to ``httpStatus`` instead.
package struct PusherProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, for callers that react differently to each.
    package enum Kind: Sendable, Hashable {
        /// A frame is larger than the limit it was decoded with.
        case frameTooLarge
        /// A frame is not UTF-8 JSON, or its JSON does not parse (nesting too deep included).
        case invalidJSON
        /// A frame is not an object with a string `event`, or `channel`/`user_id` are not strings.
        case invalidFrame
        /// An event name is empty, too long, or not allowed where it was used (`client-` prefix missing).
        case invalidEventName
        /// An event with the connection's protocol prefix (`pusher:`, `pusher_internal:`) that clients may not
        /// send.
        case unknownEvent
        /// A message's `data` lacks a required member or has one of the wrong type.
        case invalidData
        /// A channel name is empty, too long or has a character outside `[A-Za-z0-9_\-=@,.;]`.
        case invalidChannelName
        /// A valid channel name of a kind this server does not serve (`private-encrypted-`, `cache-`).
        case unsupportedChannel
        /// A socket id is not `\d+\.\d+` of bounded length.
        case invalidSocketId
        /// An `auth` value is not `key:signature`, names another key, or its signature does not match.
        case invalidSignature
        /// A presence subscription lacks `channel_data`, or its `user_id` or `user_info` is missing or wrong.
        case invalidChannelData
        /// A signin's `user_data` is not a JSON object with a non-empty string `id`.
        case invalidUserData
        /// A presence channel already has its maximum number of members.
        case presenceLimitReached
        /// A `user_id` or `user_info` is over its size limit.
        case presenceMemberTooLarge
        /// An HTTP API request lacks `auth_key`, `auth_timestamp`, `auth_version` or `auth_signature`, or one of
        /// them is malformed.
        case invalidAPIAuthentication
        /// An HTTP API request's `auth_timestamp` is too far from the server's clock.
        case timestampOutOfRange
        /// An HTTP API request's `body_md5` is missing for a body, or does not match it.
        case bodyDigestMismatch
    }

    /// The kind of problem.
    package var kind: Kind
    /// What was wrong and what was expected; safe to log and to send to the peer.
    package var message: String
    /// The Pusher code for the `pusher:error` frame, or `nil` for `"code": null`.
    package var code: PusherCloseCode?
    /// Whether the server should close the connection with ``code`` after sending the error.
    package var closesConnection: Bool

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: the kind of problem.
    ///   - message: what was wrong, quoting nothing the peer sent.
    ///   - code: the `pusher:error` code, `nil` for `null`.
    ///   - closesConnection: whether to close with `code` afterwards; only meaningful with a code.
    package init(_ kind: Kind, _ message: String, code: PusherCloseCode? = nil, closesConnection: Bool = false) {
        self.kind = kind
        self.message = message
        self.code = code
        self.closesConnection = code != nil && closesConnection
    }

    /// The HTTP status an API endpoint answers this error with: 401 for authentication problems, 413 for an
    /// oversized body, 400 otherwise.
    package var httpStatus: Int {
        switch kind {
        case .invalidAPIAuthentication, .timestampOutOfRange, .bodyDigestMismatch, .invalidSignature: 401
        case .frameTooLarge: 413
        default: 400
        }
    }

    /// The message, with the code when there is one.
    package var description: String {
        if let code { "\(message) (\(code))" } else { message }
    }
}
