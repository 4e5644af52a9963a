/// One `client_sub` or `client_unsub` request: which table or row to watch (or stop watching), and how.
///
/// On the wire it is `5:::{"name":"client_sub","args":["<JSON text>"]}`, `args[0]` being the JSON text of
/// `{"appKey":…,"tableName":…,"objectId":…,"action":…}`. Decoding also takes the object itself in place of its
/// text, a missing or null objectId as empty, and an `unsub_*` action under `client_sub`; a subscribe-form
/// action under `client_unsub` becomes its `unsub_*` form, so ``isUnsubscribe`` alone says what to do.
package struct BmobRealtimeSubscription: Sendable, Hashable {
    /// The application's id (Bmob's Application ID), which picks the app on a shared server.
    package var appKey: String
    /// The table (class), system tables with their underscore (`_User`).
    package var tableName: String
    /// The row for row actions; empty for table actions as clients send them.
    package var objectId: String
    /// What to watch, or with an `unsub_*` form what to stop watching.
    package var action: BmobRealtimeAction

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - appKey: The application's id.
    ///   - tableName: The table.
    ///   - objectId: The row, for row actions; empty by default.
    ///   - action: The action, subscribe or `unsub_*` form.
    package init(appKey: String, tableName: String, objectId: String = "", action: BmobRealtimeAction) {
        self.appKey = appKey
        self.tableName = tableName
        self.objectId = objectId
        self.action = action
    }

    /// Whether this cancels a subscription.
    package var isUnsubscribe: Bool { action.isUnsubscribe }

    /// The event it travels as: `client_unsub` for an `unsub_*` action, `client_sub` otherwise.
    package var eventName: BmobRealtimeEventName { isUnsubscribe ? .clientUnsubscribe : .clientSubscribe }

    /// The argument object, `{"action","appKey","objectId","tableName"}`.
    package var argument: JSONValue {
        .object([
            "appKey": .string(appKey), "tableName": .string(tableName), "objectId": .string(objectId),
            "action": .string(action.rawValue),
        ])
    }

    /// The event packet a client sends, with the argument as JSON text in `args[0]`.
    ///
    /// - Parameter endpoint: The socket.io endpoint; empty, as Bmob uses, by default.
    /// - Returns: The packet.
    package func packet(endpoint: String = "") -> SocketIOPacket {
        .event(eventName.rawValue, [.string(argument.jsonString)], endpoint: endpoint)
    }

    /// Decodes the request in an event packet.
    ///
    /// - Parameter packet: A packet from a client.
    /// - Throws: ``SocketIOError`` with ``SocketIOError/Code/unexpectedEvent`` for another packet or event,
    ///   or as ``init(eventName:args:)`` does.
    package init(packet: SocketIOPacket) throws(SocketIOError) {
        guard case .event(let name, let args) = packet.payload else {
            throw SocketIOError(.unexpectedEvent, "expected a client_sub or client_unsub event")
        }
        try self.init(eventName: name, args: args)
    }

    /// Decodes the request from an event's name and arguments.
    ///
    /// - Parameters:
    ///   - eventName: `client_sub` or `client_unsub`.
    ///   - args: The event's arguments; the first is the request, as JSON text or an object.
    /// - Throws: ``SocketIOError`` with ``SocketIOError/Code/unexpectedEvent`` for another event name,
    ///   ``SocketIOError/Code/invalidJSON`` when `args[0]` is text that does not parse, and
    ///   ``SocketIOError/Code/invalidSubscription`` when it is not an object with a non-empty string appKey
    ///   and tableName, a string objectId (non-empty for row actions) and a known action.
    package init(eventName: String, args: [JSONValue]) throws(SocketIOError) {
        guard let name = BmobRealtimeEventName(rawValue: eventName),
            name == .clientSubscribe || name == .clientUnsubscribe
        else {
            throw SocketIOError(.unexpectedEvent, "expected a client_sub or client_unsub event")
        }
        let members = try Self.argumentObject(args.first)
        func text(_ key: String) throws(SocketIOError) -> String {
            guard case .string(let value) = members[key], !value.isEmpty else {
                throw SocketIOError(.invalidSubscription, "subscription needs a non-empty string '\(key)'")
            }
            return value
        }
        let appKey = try text("appKey")
        let tableName = try text("tableName")
        guard let action = members["action"]?.stringValue.flatMap(BmobRealtimeAction.init(rawValue:)) else {
            throw SocketIOError(.invalidSubscription, "subscription needs a known 'action'")
        }
        let objectId: String
        switch members["objectId"] {
        case nil, .null: objectId = ""
        case .string(let value): objectId = value
        default: throw SocketIOError(.invalidSubscription, "subscription 'objectId' must be a string")
        }
        if action.isRowAction && objectId.isEmpty {
            throw SocketIOError(.invalidSubscription, "row subscription needs an objectId")
        }
        self.init(
            appKey: appKey, tableName: tableName, objectId: objectId,
            action: name == .clientUnsubscribe ? action.unsubscribeForm : action)
    }

    /// The object in `args[0]`, given as JSON text or as an object.
    private static func argumentObject(_ argument: JSONValue?) throws(SocketIOError) -> [String: JSONValue] {
        var value = argument
        if case .string(let text) = argument {
            do {
                value = try JSONParser.parse(text)
            } catch {
                throw SocketIOError(.invalidJSON, "subscription argument is not JSON: \(error.message)")
            }
        }
        guard case .object(let members) = value else {
            throw SocketIOError(.invalidSubscription, "subscription argument must be a JSON object or its text")
        }
        return members
    }
}
