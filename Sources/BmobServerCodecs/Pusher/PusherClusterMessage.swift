package import BmobWire

/// An app's channel event that other server nodes deliver to their sockets, as it travels through the store's
/// channel log (BmobServer's `PusherStoreBus`): a compact JSON object, decoded and checked again by every reader, since the
/// log is shared storage and the reader trusts nothing in it. The app is not part of the body: it is the log row's
/// own column, written by the node that authenticated the sender, so a message can only reach its own app.
package enum PusherClusterMessage: Sendable, Hashable {
    /// An HTTP API publish on one or more channels (`data` as the API received it), skipping `excluded`.
    case event(channels: [PusherChannelName], name: String, data: String, excluded: PusherSocketId?)
    /// A client event, skipping its sender.
    case clientEvent(
        channel: PusherChannelName, name: String, data: JSONValue?, senderUserId: String?, excluded: PusherSocketId)
    /// A user's first connection anywhere joined a presence channel.
    case memberAdded(channel: PusherChannelName, userId: String, userInfo: JSONValue?)
    /// A user's last connection anywhere left a presence channel.
    case memberRemoved(channel: PusherChannelName, userId: String)
    /// The HTTP API's terminate of a user's connections.
    case terminate(userId: String)
    /// A public or private channel's connection count across the cluster changed (apps with subscription counts).
    case subscriptionCount(channel: PusherChannelName, count: Int)

    /// The longest user id a message may name.
    package static let maximumUserIdLength = 200
    /// Most channels one event names (the HTTP API's bound).
    package static let maximumChannels = 100

    /// The log's text of the message.
    package var encoded: String {
        var fields: [String: JSONValue]
        switch self {
        case .event(let channels, let name, let data, let excluded):
            fields = [
                "k": "event", "c": .array(channels.map { .string($0.rawValue) }), "n": .string(name),
                "d": .string(data),
            ]
            if let excluded { fields["x"] = .string(excluded.description) }
        case .clientEvent(let channel, let name, let data, let sender, let excluded):
            fields = [
                "k": "client", "c": .string(channel.rawValue), "n": .string(name), "x": .string(excluded.description),
            ]
            if let data { fields["d"] = data }
            if let sender { fields["u"] = .string(sender) }
        case .memberAdded(let channel, let userId, let userInfo):
            fields = ["k": "added", "c": .string(channel.rawValue), "u": .string(userId)]
            if let userInfo { fields["i"] = userInfo }
        case .memberRemoved(let channel, let userId):
            fields = ["k": "removed", "c": .string(channel.rawValue), "u": .string(userId)]
        case .terminate(let userId):
            fields = ["k": "terminate", "u": .string(userId)]
        case .subscriptionCount(let channel, let count):
            fields = ["k": "count", "c": .string(channel.rawValue), "n": .int(Int64(count))]
        }
        return JSONValue.object(fields).jsonString
    }

    /// Decodes and checks a log body: `nil` for anything malformed (the reader skips it).
    package init?(decoding text: String) {
        guard case .object(let fields)? = try? JSONParser.parse(Array(text.utf8)), let kind = fields["k"]?.stringValue
        else { return nil }
        let channel = fields["c"]?.stringValue.flatMap { try? PusherChannelName(validating: $0) }
        let userId = fields["u"]?.stringValue.flatMap {
            $0.isEmpty || $0.utf8.count > Self.maximumUserIdLength ? nil : $0
        }
        let excluded = fields["x"]?.stringValue.flatMap { try? PusherSocketId(validating: $0) }
        let name = fields["n"]?.stringValue.flatMap {
            $0.isEmpty || $0.utf8.count > PusherFrame.maximumEventNameLength ? nil : $0
        }
        switch kind {
        case "event":
            guard let list = fields["c"]?.arrayValue, (1...Self.maximumChannels).contains(list.count), let name,
                !PusherEventPrefix.isReserved(name), let data = fields["d"]?.stringValue
            else { return nil }
            let channels = list.compactMap { $0.stringValue.flatMap { try? PusherChannelName(validating: $0) } }
            guard channels.count == list.count else { return nil }
            if fields["x"] != nil, excluded == nil { return nil }
            self = .event(channels: channels, name: name, data: data, excluded: excluded)
        case "client":
            guard let channel, channel.allowsClientEvents, let name, name.hasPrefix("client-"), let excluded else {
                return nil
            }
            if fields["u"] != nil, userId == nil { return nil }
            self = .clientEvent(
                channel: channel, name: name, data: fields["d"], senderUserId: userId, excluded: excluded)
        case "added":
            guard let channel, channel.kind == .presence, let userId else { return nil }
            self = .memberAdded(channel: channel, userId: userId, userInfo: fields["i"])
        case "removed":
            guard let channel, channel.kind == .presence, let userId else { return nil }
            self = .memberRemoved(channel: channel, userId: userId)
        case "terminate":
            guard let userId else { return nil }
            self = .terminate(userId: userId)
        case "count":
            guard let channel, channel.kind != .presence, channel.serverToUserId == nil,
                let count = fields["n"]?.int64Value, (1...Int64(Int32.max)).contains(count)
            else { return nil }
            self = .subscriptionCount(channel: channel, count: Int(count))
        default:
            return nil
        }
    }
}
