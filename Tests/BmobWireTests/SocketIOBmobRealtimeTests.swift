import BmobWire
import Testing

/// Bmob realtime data over socket.io: ``BmobRealtimeAction``, ``BmobRealtimeSubscription`` from
/// `client_sub`/`client_unsub` events, and ``BmobRealtimePublication`` in `server_pub` events with the SDK's
/// fallbacks.
@Suite struct SocketIOBmobRealtimeTests {
    /// The text frame a client sends for `name` with `argument` as JSON text in `args[0]`.
    static func frame(_ name: String, _ argument: String) -> String {
        "5:::{\"name\":\"\(name)\",\"args\":[" + JSONValue.string(argument).jsonString + "]}"
    }

    @Test func actionsAndTheirUnsubscribeForms() {
        #expect(BmobRealtimeAction.allCases.count == 8)
        for action in [BmobRealtimeAction.updateTable, .updateRow, .deleteTable, .deleteRow] {
            #expect(!action.isUnsubscribe)
            #expect(action.unsubscribeForm.isUnsubscribe)
            #expect(action.unsubscribeForm.rawValue == "unsub_" + action.rawValue)
            #expect(action.unsubscribeForm.subscribeForm == action)
            #expect(action.subscribeForm == action)
            #expect(action.unsubscribeForm.unsubscribeForm == action.unsubscribeForm)
        }
        #expect(BmobRealtimeAction(rawValue: "unsub_deleteRow") == .unsubscribeDeleteRow)
        #expect(BmobRealtimeAction.updateRow.isRowAction && BmobRealtimeAction.unsubscribeDeleteRow.isRowAction)
        #expect(!BmobRealtimeAction.updateTable.isRowAction && !BmobRealtimeAction.unsubscribeDeleteTable.isRowAction)
        #expect(BmobRealtimeAction(rawValue: "listen") == nil)
    }

    @Test func decodesATableSubscriptionSentByJavaScript() throws {
        let text = Self.frame(
            "client_sub", #"{"appKey":"app-1","tableName":"Chat","objectId":"","action":"updateTable"}"#)
        let subscription = try BmobRealtimeSubscription(packet: SocketIOPacket(decoding: text))
        #expect(subscription == BmobRealtimeSubscription(appKey: "app-1", tableName: "Chat", action: .updateTable))
        #expect(!subscription.isUnsubscribe)
        #expect(subscription.eventName == .clientSubscribe)
    }

    @Test func decodesARowSubscriptionOnASystemTable() throws {
        let text = Self.frame(
            "client_sub", #"{"appKey":"app-1","tableName":"_User","objectId":"a1b2","action":"deleteRow"}"#)
        let subscription = try BmobRealtimeSubscription(packet: SocketIOPacket(decoding: text))
        #expect(
            subscription.tableName == "_User" && subscription.objectId == "a1b2" && subscription.action == .deleteRow)
    }

    @Test func unsubscribeUnderEitherEventName() throws {
        // Current JavaScript: client_unsub with unsub_*; older builds: client_sub with unsub_*.
        for name in ["client_unsub", "client_sub"] {
            let text = Self.frame(
                name, #"{"appKey":"k","tableName":"Post","objectId":"r1","action":"unsub_updateRow"}"#)
            let subscription = try BmobRealtimeSubscription(packet: SocketIOPacket(decoding: text))
            #expect(subscription.isUnsubscribe)
            #expect(subscription.action == .unsubscribeUpdateRow)
        }
        // client_unsub with a subscribe-form action still unsubscribes.
        let text = Self.frame("client_unsub", #"{"appKey":"k","tableName":"Post","action":"deleteTable"}"#)
        let subscription = try BmobRealtimeSubscription(packet: SocketIOPacket(decoding: text))
        #expect(subscription.action == .unsubscribeDeleteTable)
        #expect(subscription.eventName == .clientUnsubscribe)
    }

    @Test func toleratesAnObjectArgumentAndAMissingObjectId() throws {
        let subscription = try BmobRealtimeSubscription(
            eventName: "client_sub",
            args: [["appKey": "k", "tableName": "Chat", "action": "updateTable", "objectId": nil, "extra": 1]])
        #expect(subscription == BmobRealtimeSubscription(appKey: "k", tableName: "Chat", action: .updateTable))
    }

    @Test(arguments: BmobRealtimeAction.allCases)
    func subscriptionRoundTrips(action: BmobRealtimeAction) throws {
        let subscription = BmobRealtimeSubscription(
            appKey: "app\"key", tableName: "Chat", objectId: action.isRowAction ? "obj 1" : "", action: action)
        let packet = subscription.packet()
        let name = action.isUnsubscribe ? "client_unsub" : "client_sub"
        guard case .event(name, let args) = packet.payload, case .string(let text) = args.first else {
            Issue.record("not a \(name) event with a JSON string argument")
            return
        }
        #expect(try JSONParser.parse(text) == subscription.argument)
        let decoded = try BmobRealtimeSubscription(packet: SocketIOPacket(decoding: packet.encoded))
        #expect(decoded == subscription)
    }

    @Test(arguments: [
        ("client_sub", #"{"tableName":"Chat","action":"updateTable"}"#, SocketIOError.Code.invalidSubscription),
        ("client_sub", #"{"appKey":"","tableName":"Chat","action":"updateTable"}"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k","action":"updateTable"}"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k","tableName":5,"action":"updateTable"}"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k","tableName":"Chat"}"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k","tableName":"Chat","action":"listen"}"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k","tableName":"Chat","action":"updateRow"}"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k","tableName":"Chat","objectId":"","action":"deleteRow"}"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k","tableName":"Chat","objectId":3,"action":"updateTable"}"#, .invalidSubscription),
        ("client_sub", #"["k","Chat"]"#, .invalidSubscription),
        ("client_sub", #"{"appKey":"k""#, .invalidJSON),
        ("server_pub", #"{"appKey":"k","tableName":"Chat","action":"updateTable"}"#, .unexpectedEvent),
        ("client_send_data", "{}", .unexpectedEvent),
    ])
    func rejectsBadSubscriptions(name: String, argument: String, code: SocketIOError.Code) throws {
        let packet = try SocketIOPacket(decoding: Self.frame(name, argument))
        do {
            _ = try BmobRealtimeSubscription(packet: packet)
            Issue.record("accepted a bad subscription")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test func subscriptionNeedsAnEventWithAnArgument() {
        #expect(throws: SocketIOError.self) { try BmobRealtimeSubscription(packet: .heartbeat) }
        #expect(throws: SocketIOError.self) { try BmobRealtimeSubscription(eventName: "client_sub", args: []) }
        #expect(throws: SocketIOError.self) { try BmobRealtimeSubscription(eventName: "client_sub", args: [nil]) }
    }

    @Test func publicationIsAServerPubEventWithAJSONStringArgument() throws {
        let row: [String: JSONValue] = [
            "objectId": "o1", "name": "ann", "content": "你好", "createdAt": "2024-01-02 03:04:05", "n": 3,
        ]
        let publication = BmobRealtimePublication(
            appKey: "k", tableName: "Chat", objectId: "", action: .updateTable, data: row)
        let text = publication.packet().encoded
        #expect(text.hasPrefix("5:::{\"name\":\"server_pub\",\"args\":[\""))
        let packet = try SocketIOPacket(decoding: text)
        guard case .event("server_pub", let args) = packet.payload, args.count == 1,
            case .string(let inner) = args[0]
        else {
            Issue.record("args[0] is not a JSON string")
            return
        }
        #expect(
            try JSONParser.parse(inner)
                == ["appKey": "k", "tableName": "Chat", "objectId": "", "action": "updateTable", "data": .object(row)])
        let decoded = try BmobRealtimePublication(packet: packet)
        #expect(decoded == publication)
        #expect(decoded.appKey == "k")
        #expect(decoded.tableName == "Chat")
        #expect(decoded.action == .updateTable && decoded.actionName == "updateTable")
        #expect(decoded.data == row)
        // The top-level objectId is empty for table events, so it falls back to data.objectId.
        #expect(decoded.objectId == "o1")
    }

    @Test func rowPublicationKeepsItsObjectId() throws {
        let publication = BmobRealtimePublication(
            appKey: "k", tableName: "Post", objectId: "row-id", action: .deleteRow, data: ["objectId": "other"])
        let decoded = try BmobRealtimePublication(packet: SocketIOPacket(decoding: publication.packet().encoded))
        #expect(decoded.objectId == "row-id")
        #expect(decoded.action == .deleteRow)
    }

    @Test func decodingAppliesTheSDKFallbacks() throws {
        let inner = #"{"className":"Blog","action":"custom","data":{"objectId":"d9","title":"t"}}"#
        let decoded = try BmobRealtimePublication(packet: SocketIOPacket(decoding: Self.frame("server_pub", inner)))
        #expect(decoded.tableName == "Blog")  // className when tableName is missing
        #expect(decoded.objectId == "d9")  // data.objectId when objectId is missing
        #expect(decoded.actionName == "custom" && decoded.action == nil)
        #expect(decoded.appKey == nil)
        #expect(decoded.rawValue["className"] == "Blog")

        let bare = try BmobRealtimePublication(eventName: "server_pub", args: ["{\"objectId\":\"\",\"data\":7}"])
        #expect(bare.objectId == nil && bare.data == nil && bare.tableName == nil && bare.action == nil)

        let both = BmobRealtimePublication(rawValue: ["tableName": "A", "className": "B", "objectId": "x"])
        #expect(both.tableName == "A" && both.objectId == "x")
    }

    @Test func toleratesAnObjectArgument() throws {
        let decoded = try BmobRealtimePublication(
            eventName: "server_pub", args: [["tableName": "Chat", "objectId": "o2", "action": "updateRow"]])
        #expect(decoded.tableName == "Chat" && decoded.objectId == "o2" && decoded.action == .updateRow)
    }

    @Test func rejectsBadPublications() {
        func code(_ body: () throws(SocketIOError) -> Void) -> SocketIOError.Code? {
            do { try body() } catch { return error.code }
            return nil
        }
        #expect(
            code { () throws(SocketIOError) in _ = try BmobRealtimePublication(eventName: "client_sub", args: ["{}"]) }
                == .unexpectedEvent)
        #expect(code { () throws(SocketIOError) in _ = try BmobRealtimePublication(packet: .noop) } == .unexpectedEvent)
        #expect(
            code { () throws(SocketIOError) in _ = try BmobRealtimePublication(eventName: "server_pub", args: []) }
                == .invalidPublication)
        #expect(
            code { () throws(SocketIOError) in _ = try BmobRealtimePublication(eventName: "server_pub", args: ["[1]"]) }
                == .invalidPublication)
        #expect(
            code { () throws(SocketIOError) in _ = try BmobRealtimePublication(eventName: "server_pub", args: [1]) }
                == .invalidPublication)
        #expect(
            code { () throws(SocketIOError) in _ = try BmobRealtimePublication(eventName: "server_pub", args: ["{"]) }
                == .invalidJSON)
    }

    @Test func readyPacketIsWhatJavaScriptWaitsFor() throws {
        #expect(BmobRealtimeEventName.readyPacket.encoded == #"5:::{"name":"client_send_data","args":["{}"]}"#)
        let packet = try SocketIOPacket(decoding: BmobRealtimeEventName.readyPacket.encoded)
        guard case .event(let name, let args) = packet.payload, case .string(let text) = args.first else {
            Issue.record("not an event")
            return
        }
        #expect(name == BmobRealtimeEventName.clientSendData.rawValue)
        #expect(try JSONParser.parse(text) == .object([:]))
    }
}
