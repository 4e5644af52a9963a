/// The `channel_data` of a presence subscription, `{"user_id": String|Int, "user_info"?: Any}`
/// (`pusher.md` §3.2, §3.4).
///
/// Parse it only after the subscription's signature has been verified over the exact string received
/// (``PusherSignatures/verifyChannelAuth(_:key:secret:socketId:channel:channelData:)``): this value is for
/// membership, never for signing.
package struct PusherChannelData: Sendable, Hashable {
    /// The member's user id; an integer `user_id` (as phttp's examples send) becomes its decimal text.
    package var userId: String
    /// The member's `user_info`, or `nil` when absent or `null`.
    package var userInfo: JSONValue?

    /// A member from its parts.
    ///
    /// - Parameters:
    ///   - userId: the user id.
    ///   - userInfo: the user info, if any.
    package init(userId: String, userInfo: JSONValue? = nil) {
        self.userId = userId
        self.userInfo = userInfo
    }

    /// Parses a `channel_data` string.
    ///
    /// - Parameter text: the string as received in `pusher:subscribe`.
    /// - Throws: ``PusherProtocolError`` of kind ``PusherProtocolError/Kind/invalidChannelData`` when the text is
    ///   not a JSON object with a non-empty string or integer `user_id`.
    package init(parsing text: String) throws(PusherProtocolError) {
        guard case .object(let members)? = try? JSONParser.parse(text) else {
            throw PusherProtocolError(.invalidChannelData, "channel_data is not a JSON object")
        }
        switch members["user_id"] {
        case .string(let id)? where !id.isEmpty: userId = id
        case .int(let id)?: userId = String(id)
        case nil: throw PusherProtocolError(.invalidChannelData, "channel_data has no user_id")
        default: throw PusherProtocolError(.invalidChannelData, "user_id must be a non-empty string or an integer")
        }
        switch members["user_info"] {
        case nil, .null?: userInfo = nil
        case let info?: userInfo = info
        }
    }
}
