/// Builds the frames a server sends, with a connection's ``PusherEventPrefix`` (`pusher.md` §2–§6).
///
/// Data follows what clients require: a JSON-encoded **string** for `connection_established` (pysher parses it
/// and fails on an object) and for every `{prefix}_internal:` event; an **object** for `{prefix}:error` (pysher
/// reads `data['code']`) and `signin_success`; published and client event data forwarded as given.
/// Send a frame's ``PusherFrame/encoded`` text.
package struct PusherServerMessage: Sendable, Hashable {
    /// The prefix written into event names.
    package var prefix: PusherEventPrefix

    /// A builder for connections with `prefix`.
    ///
    /// - Parameter prefix: the connection's event prefix.
    package init(prefix: PusherEventPrefix) {
        self.prefix = prefix
    }

    /// `{prefix}:connection_established` with data `"{\"activity_timeout\":…,\"socket_id\":\"…\"}"` (a string).
    ///
    /// - Parameters:
    ///   - socketId: the connection's socket id.
    ///   - activityTimeout: seconds of silence after which the client pings; must be positive (pusher-js fails
    ///     the handshake on 0). Pusher sends 120.
    /// - Returns: the frame.
    package func connectionEstablished(socketId: PusherSocketId, activityTimeout: Int = 120) -> PusherFrame {
        precondition(activityTimeout > 0, "activity_timeout must be positive")
        let data: JSONValue = [
            "socket_id": .string(socketId.rawValue), "activity_timeout": .int(Int64(activityTimeout)),
        ]
        return PusherFrame(event: prefix.protocolEvent("connection_established"), data: .string(data.jsonString))
    }

    /// `{prefix}:error` with data `{"code": Int|null, "message": String}` (an object), on no channel.
    ///
    /// - Parameters:
    ///   - code: the code, `nil` for `null` (a non-fatal error).
    ///   - message: what went wrong.
    /// - Returns: the frame.
    package func error(code: PusherCloseCode?, message: String) -> PusherFrame {
        let codeValue: JSONValue = code.map { .int(Int64($0.rawValue)) } ?? .null
        return PusherFrame(
            event: prefix.protocolEvent("error"), data: ["code": codeValue, "message": .string(message)])
    }

    /// `{prefix}:error` for a refusal; when ``PusherProtocolError/closesConnection`` is set, close the
    /// connection with ``PusherProtocolError/code`` after sending it.
    ///
    /// - Parameter error: the refusal.
    /// - Returns: the frame.
    package func error(_ error: PusherProtocolError) -> PusherFrame {
        self.error(code: error.code, message: error.message)
    }

    /// `{prefix}:ping` with data `{}`; clients answer with a pong.
    ///
    /// - Returns: the frame.
    package func ping() -> PusherFrame {
        PusherFrame(event: prefix.protocolEvent("ping"), data: .object([:]))
    }

    /// `{prefix}:pong` with data `{}`, the answer to a client's ping.
    ///
    /// - Returns: the frame.
    package func pong() -> PusherFrame {
        PusherFrame(event: prefix.protocolEvent("pong"), data: .object([:]))
    }

    /// `{prefix}_internal:subscription_succeeded` on a public, private or server-to-user channel, data `"{}"`.
    ///
    /// - Parameter channel: the channel subscribed to.
    /// - Returns: the frame.
    package func subscriptionSucceeded(channel: PusherChannelName) -> PusherFrame {
        PusherFrame(event: prefix.internalEvent("subscription_succeeded"), channel: channel, data: .string("{}"))
    }

    /// `{prefix}_internal:subscription_succeeded` on a presence channel, with data
    /// `"{\"presence\":{\"count\":…,\"hash\":{…},\"ids\":[…]}}"` (a string). `members` must already hold the
    /// joining socket: its own hash includes it.
    ///
    /// - Parameters:
    ///   - channel: the presence channel.
    ///   - members: the channel's members, the joiner included.
    /// - Returns: the frame.
    package func subscriptionSucceeded(channel: PusherChannelName, members: PusherPresenceMembers) -> PusherFrame {
        PusherFrame(
            event: prefix.internalEvent("subscription_succeeded"), channel: channel,
            data: .string(members.subscriptionData.jsonString))
    }

    /// `{prefix}_internal:member_added` with data `"{\"user_id\":…,\"user_info\":…}"` (a string), for the other
    /// subscribers when a user's first socket joins. `user_info` is left out when `nil`.
    ///
    /// - Parameters:
    ///   - channel: the presence channel.
    ///   - userId: the new member's user id.
    ///   - userInfo: its `user_info`, if any.
    /// - Returns: the frame.
    package func memberAdded(channel: PusherChannelName, userId: String, userInfo: JSONValue?) -> PusherFrame {
        var data: [String: JSONValue] = ["user_id": .string(userId)]
        if let userInfo { data["user_info"] = userInfo }
        return PusherFrame(
            event: prefix.internalEvent("member_added"), channel: channel,
            data: .string(JSONValue.object(data).jsonString))
    }

    /// `{prefix}_internal:member_removed` with data `"{\"user_id\":…}"` (a string), when a user's last socket
    /// leaves.
    ///
    /// - Parameters:
    ///   - channel: the presence channel.
    ///   - userId: the leaving member's user id.
    /// - Returns: the frame.
    package func memberRemoved(channel: PusherChannelName, userId: String) -> PusherFrame {
        let data: JSONValue = ["user_id": .string(userId)]
        return PusherFrame(
            event: prefix.internalEvent("member_removed"), channel: channel, data: .string(data.jsonString))
    }

    /// `{prefix}:signin_success` with data `{"user_data": "<the string received>"}` (an object).
    ///
    /// - Parameter userData: the exact `user_data` string of the signin.
    /// - Returns: the frame.
    package func signinSuccess(userData: String) -> PusherFrame {
        PusherFrame(event: prefix.protocolEvent("signin_success"), data: ["user_data": .string(userData)])
    }

    /// An application event on a channel, as published through the HTTP API: `data` is forwarded as given
    /// (normally the publisher's string, so clients receive it byte for byte). The name is not checked; refuse
    /// reserved names (``PusherEventPrefix/isReserved(_:)``) when accepting the publish.
    ///
    /// - Parameters:
    ///   - name: the event name.
    ///   - channel: the channel.
    ///   - data: the data, usually a string.
    /// - Returns: the frame.
    package func event(_ name: String, channel: PusherChannelName, data: JSONValue?) -> PusherFrame {
        PusherFrame(event: name, channel: channel, data: data)
    }

    /// A client event relayed to the channel's other subscribers: name, channel and data as received, plus
    /// `user_id` on presence channels.
    ///
    /// The data is re-encoded from its parsed value: its meaning is kept, but object keys come out sorted,
    /// whitespace is dropped, and an integral number written as `1.0` comes out as `1`.
    ///
    /// - Parameters:
    ///   - name: the `client-` event name.
    ///   - channel: the channel it was sent on.
    ///   - data: the data received.
    ///   - senderUserId: the sender's user id on a presence channel; ignored on other channels.
    /// - Returns: the frame.
    package func clientEvent(
        _ name: String, channel: PusherChannelName, data: JSONValue?, senderUserId: String?
    ) -> PusherFrame {
        PusherFrame(event: name, channel: channel, data: data, userId: channel.kind == .presence ? senderUserId : nil)
    }

    /// `{prefix}_internal:subscription_count` with data `"{\"subscription_count\":n}"` (a string), for apps that
    /// opt in.
    ///
    /// - Parameters:
    ///   - channel: the channel.
    ///   - count: the number of subscribed sockets.
    /// - Returns: the frame.
    package func subscriptionCount(channel: PusherChannelName, count: Int) -> PusherFrame {
        let data: JSONValue = ["subscription_count": .int(Int64(count))]
        return PusherFrame(
            event: prefix.internalEvent("subscription_count"), channel: channel, data: .string(data.jsonString))
    }
}
