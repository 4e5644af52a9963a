/// One `server_pub` event: a change to a watched table or row, as the server sends it and the SDK reads it.
///
/// On the wire it is `5:::{"name":"server_pub","args":["<JSON text>"]}`, `args[0]` being the JSON **text** of
/// `{"appKey":…,"tableName":…,"objectId":…,"action":…,"data":{…row…}}`. The message object is kept whole in
/// ``rawValue`` (the SDK's `BmobEventMessage.rawValue`); the other properties read it with the SDK's
/// fallbacks, so a server that sends `className`, or an empty top-level objectId, still gives a usable message.
package struct BmobRealtimePublication: Sendable, Hashable {
    /// The message object as sent.
    package let rawValue: [String: JSONValue]

    /// Wraps a message object as received.
    ///
    /// - Parameter rawValue: The object from `args[0]`.
    package init(rawValue: [String: JSONValue]) {
        self.rawValue = rawValue
    }

    /// Creates the message the server publishes for a change.
    ///
    /// - Parameters:
    ///   - appKey: The application's id.
    ///   - tableName: The table.
    ///   - objectId: The row's id for row actions; empty for table actions, as hosted Bmob sends.
    ///   - action: A subscribe-form action; an `unsub_*` form is a programmer error.
    ///   - data: The row, including objectId, createdAt and updatedAt (for deletions, the last known row).
    package init(
        appKey: String, tableName: String, objectId: String, action: BmobRealtimeAction, data: [String: JSONValue]
    ) {
        precondition(!action.isUnsubscribe, "a publication carries a subscribe-form action")
        self.init(rawValue: [
            "appKey": .string(appKey), "tableName": .string(tableName), "objectId": .string(objectId),
            "action": .string(action.rawValue), "data": .object(data),
        ])
    }

    /// The application's id, when the message has one as a string.
    package var appKey: String? { rawValue["appKey"]?.stringValue }

    /// The table: `tableName`, or `className` when `tableName` is not a string.
    package var tableName: String? { rawValue["tableName"]?.stringValue ?? rawValue["className"]?.stringValue }

    /// The row's id: a non-empty top-level `objectId`, else a non-empty `data.objectId`, else nil.
    package var objectId: String? {
        if let id = rawValue["objectId"]?.stringValue, !id.isEmpty { return id }
        if let id = data?["objectId"]?.stringValue, !id.isEmpty { return id }
        return nil
    }

    /// The action's name as sent, known or not.
    package var actionName: String? { rawValue["action"]?.stringValue }

    /// The action, when it is one of ``BmobRealtimeAction``.
    package var action: BmobRealtimeAction? { actionName.flatMap(BmobRealtimeAction.init(rawValue:)) }

    /// The row, when `data` is an object.
    package var data: [String: JSONValue]? { rawValue["data"]?.objectValue }

    /// The event packet the server sends, with ``rawValue`` as JSON text in `args[0]`.
    ///
    /// - Parameter endpoint: The socket.io endpoint; empty, as Bmob uses, by default.
    /// - Returns: The packet.
    package func packet(endpoint: String = "") -> SocketIOPacket {
        .event(
            BmobRealtimeEventName.serverPublish.rawValue, [.string(JSONValue.object(rawValue).jsonString)],
            endpoint: endpoint)
    }

    /// Decodes the message in an event packet.
    ///
    /// - Parameter packet: A packet from the server.
    /// - Throws: ``SocketIOError`` with ``SocketIOError/Code/unexpectedEvent`` for another packet or event,
    ///   or as ``init(eventName:args:)`` does.
    package init(packet: SocketIOPacket) throws(SocketIOError) {
        guard case .event(let name, let args) = packet.payload else {
            throw SocketIOError(.unexpectedEvent, "expected a server_pub event")
        }
        try self.init(eventName: name, args: args)
    }

    /// Decodes the message from an event's name and arguments.
    ///
    /// - Parameters:
    ///   - eventName: `server_pub`.
    ///   - args: The event's arguments; the first is the message, as JSON text or (tolerated) an object.
    /// - Throws: ``SocketIOError`` with ``SocketIOError/Code/unexpectedEvent`` for another event name,
    ///   ``SocketIOError/Code/invalidJSON`` when `args[0]` is text that does not parse, and
    ///   ``SocketIOError/Code/invalidPublication`` when it is missing or not an object.
    package init(eventName: String, args: [JSONValue]) throws(SocketIOError) {
        guard eventName == BmobRealtimeEventName.serverPublish.rawValue else {
            throw SocketIOError(.unexpectedEvent, "expected a server_pub event")
        }
        var value = args.first
        if case .string(let text) = value {
            do {
                value = try JSONParser.parse(text)
            } catch {
                throw SocketIOError(.invalidJSON, "publication argument is not JSON: \(error.message)")
            }
        }
        guard case .object(let members) = value else {
            throw SocketIOError(.invalidPublication, "publication argument must be a JSON object or its text")
        }
        self.init(rawValue: members)
    }
}
