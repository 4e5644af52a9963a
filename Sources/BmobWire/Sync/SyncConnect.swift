/// The first message on every sync socket (`sync.md` §1.3, §1.8): who the client is across reconnects.
package struct SyncConnect: Sendable, Hashable {
    /// One id per client instance, kept across its reconnects (a UUID; at most 64 characters).
    package var sessionId: String
    /// How many sockets this client opened before this one.
    package var connectionCount: Int64
    /// Why the previous socket closed (`InitialConnect` for the first); at most 256 characters.
    package var lastCloseReason: String
    /// The newest `ts` the client has seen, if any.
    package var maxObservedTimestamp: Int64?
    /// The client's clock, in milliseconds since 1970, if sent.
    package var clientTs: Int64?

    /// The longest session id.
    package static let maximumSessionIdLength = 64
    /// The longest close reason.
    package static let maximumReasonLength = 256

    /// A connect message.
    package init(
        sessionId: String, connectionCount: Int64 = 0, lastCloseReason: String = "InitialConnect",
        maxObservedTimestamp: Int64? = nil, clientTs: Int64? = nil
    ) {
        self.sessionId = sessionId
        self.connectionCount = connectionCount
        self.lastCloseReason = lastCloseReason
        self.maxObservedTimestamp = maxObservedTimestamp
        self.clientTs = clientTs
    }

    /// The message's members after `type`.
    var members: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "sessionId": .string(sessionId), "connectionCount": .int(connectionCount),
            "lastCloseReason": .string(lastCloseReason),
        ]
        if let maxObservedTimestamp { members["maxObservedTimestamp"] = .int(maxObservedTimestamp) }
        if let clientTs { members["clientTs"] = .int(clientTs) }
        return members
    }

    /// Reads the members of a `Connect` message.
    init(json: JSONValue) throws(SyncProtocolError) {
        sessionId = try SyncMembers.string("sessionId", in: json)
        guard !sessionId.isEmpty, sessionId.utf8.count <= Self.maximumSessionIdLength else {
            throw SyncProtocolError(.invalidMember, "sessionId must be 1 to \(Self.maximumSessionIdLength) characters")
        }
        connectionCount = try SyncMembers.count("connectionCount", in: json)
        lastCloseReason = try SyncMembers.optionalString("lastCloseReason", in: json) ?? "InitialConnect"
        guard lastCloseReason.utf8.count <= Self.maximumReasonLength else {
            throw SyncProtocolError(.invalidMember, "lastCloseReason must be at most \(Self.maximumReasonLength) characters")
        }
        maxObservedTimestamp = try SyncMembers.optionalCount("maxObservedTimestamp", in: json)
        clientTs = try SyncMembers.optionalCount("clientTs", in: json)
    }
}
