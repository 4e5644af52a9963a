/// The `user_data` of a signin, `{"id": String, "user_info"?: Any, "watchlist"?: [String]}` (`pusher.md` §6).
///
/// Parse it only after the signin's signature has been verified over the exact string received
/// (``PusherSignatures/verifyUserAuth(_:key:secret:socketId:userData:)``).
package struct PusherUserData: Sendable, Hashable {
    /// The signed-in user's id: non-empty, of the characters a `#server-to-user-` channel allows.
    package var id: String
    /// The user's `user_info`, or `nil` when absent or `null`.
    package var userInfo: JSONValue?
    /// The user ids in `watchlist`, empty when absent.
    package var watchlist: [String]

    /// Parses a `user_data` string.
    ///
    /// - Parameter text: the string as received in `pusher:signin`.
    /// - Throws: ``PusherProtocolError`` of kind ``PusherProtocolError/Kind/invalidUserData`` when the text is not
    ///   a JSON object with a valid string `id`, or `watchlist` is not an array of strings.
    package init(parsing text: String) throws(PusherProtocolError) {
        guard case .object(let members)? = try? JSONParser.parse(text) else {
            throw PusherProtocolError(.invalidUserData, "user_data is not a JSON object")
        }
        guard case .string(let id)? = members["id"], !id.isEmpty else {
            throw PusherProtocolError(.invalidUserData, "user_data needs a non-empty string id")
        }
        // The id names the user's #server-to-user- channel, so it must make a valid channel name.
        guard (try? PusherChannelName.serverToUser(id)) != nil else {
            throw PusherProtocolError(.invalidUserData, "user id must be of the characters [A-Za-z0-9_-=@,.;]")
        }
        self.id = id
        switch members["user_info"] {
        case nil, .null?: userInfo = nil
        case let info?: userInfo = info
        }
        switch members["watchlist"] {
        case nil, .null?: watchlist = []
        case .array(let elements)?:
            var ids: [String] = []
            for element in elements {
                guard case .string(let id) = element else {
                    throw PusherProtocolError(.invalidUserData, "watchlist must be an array of strings")
                }
                ids.append(id)
            }
            watchlist = ids
        default: throw PusherProtocolError(.invalidUserData, "watchlist must be an array of strings")
        }
    }
}
