import BmobServerCodecs
import BmobWire

/// libFuzzer entry point for the channel log's messages (``PusherClusterMessage``), which every server node reads
/// from the shared database and trusts no more than network input.
///
/// Checked with preconditions:
/// - a body that decodes re-encodes to text that decodes to the same message, and that encoding is a fixed point;
/// - what decodes is within the protocol's bounds: valid channel names (1 to 100 of them), event names that are no
///   protocol event, client events only on private and presence channels, members only on presence channels, user
///   ids of 1 to 200 bytes;
/// - messages built around the input (as event data, user id, user info, event name) round trip exactly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let message = PusherClusterMessage(decoding: text) {
        checkBounds(message)
        let encoded = message.encoded
        guard let again = PusherClusterMessage(decoding: encoded) else {
            preconditionFailure("an encoded message does not decode")
        }
        precondition(again == message, "decode(encode(m)) != m")
        precondition(again.encoded == encoded, "encoding is not a fixed point")
    }
    checkBuilt(text)
    return 0
}

private func checkBounds(_ message: PusherClusterMessage) {
    func checkUser(_ userId: String) {
        precondition(!userId.isEmpty && userId.utf8.count <= PusherClusterMessage.maximumUserIdLength, "user id bounds")
    }
    switch message {
    case .event(let channels, let name, _, _):
        precondition((1...PusherClusterMessage.maximumChannels).contains(channels.count), "channel count")
        precondition(!name.isEmpty && !PusherEventPrefix.isReserved(name), "protocol event published")
    case .clientEvent(let channel, let name, _, let sender, _):
        precondition(channel.allowsClientEvents && name.hasPrefix("client-"), "client event bounds")
        if let sender { checkUser(sender) }
    case .memberAdded(let channel, let userId, _), .memberRemoved(let channel, let userId):
        precondition(channel.kind == .presence, "member of a channel without presence")
        checkUser(userId)
    case .terminate(let userId):
        checkUser(userId)
    case .subscriptionCount(let channel, let count):
        precondition(channel.kind != .presence && channel.serverToUserId == nil, "a count on a channel with members")
        precondition(count >= 1 && count <= Int(Int32.max), "count bounds")
    }
}

private func checkBuilt(_ text: String) {
    guard let room = try? PusherChannelName(validating: "presence-room"),
        let news = try? PusherChannelName(validating: "news"),
        let chat = try? PusherChannelName(validating: "private-chat")
    else { preconditionFailure("fixed channel names") }
    let socket = PusherSocketId(1, 2)
    var messages: [PusherClusterMessage] = [
        .event(channels: [news, room], name: "e", data: text, excluded: socket),
        .clientEvent(channel: chat, name: "client-e", data: .string(text), senderUserId: nil, excluded: socket),
    ]
    messages.append(.subscriptionCount(channel: news, count: max(1, text.utf8.count)))
    if let channel = try? PusherChannelName(validating: text) {
        messages.append(.event(channels: [channel], name: "e", data: "", excluded: nil))
    }
    if !text.isEmpty, text.utf8.count <= PusherClusterMessage.maximumUserIdLength {
        messages += [
            .memberAdded(channel: room, userId: text, userInfo: .object([text: .array([.string(text), .null])])),
            .memberRemoved(channel: room, userId: text), .terminate(userId: text),
            .clientEvent(channel: room, name: "client-e", data: nil, senderUserId: text, excluded: socket),
        ]
    }
    if !text.isEmpty, text.utf8.count <= PusherFrame.maximumEventNameLength, !PusherEventPrefix.isReserved(text) {
        messages.append(.event(channels: [news], name: text, data: "", excluded: nil))
    }
    for message in messages {
        precondition(PusherClusterMessage(decoding: message.encoded) == message, "built message round trip")
    }
}
