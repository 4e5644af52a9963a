import BmobWire

/// libFuzzer entry point for socket.io 0.9 input from the network: ``SocketIOPacket``, ``SocketIOFrameBatch``,
/// ``SocketIOHandshake``, ``SocketIOPath``, and the Bmob realtime events ``BmobRealtimeSubscription`` and
/// ``BmobRealtimePublication``.
///
/// The bytes are read as text (invalid UTF-8 becomes U+FFFD, which the batch framing uses). Checked with
/// preconditions:
/// - a decoded packet encodes to text that decodes; the second decoding encodes to the same text and decodes to
///   itself. (The first one may differ only where JSON wrote an integral double, such as `1.0`, which encodes as
///   `1` and comes back as an integer.)
/// - packets built around the input (message data, event name and argument, endpoint-free error advice) round
///   trip exactly, alone and batched;
/// - a parsed handshake, path, subscription or publication survives its own encoding;
/// - every rejection is a ``SocketIOError`` with a message and, for packets and batches, an offset inside the
///   text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    checkPacket(text)
    checkBatch(text)
    checkBuiltPackets(text)
    checkHandshake(text)
    checkPath(text)
    return 0
}

private func checkPacket(_ text: String) {
    do {
        let packet = try SocketIOPacket(decoding: text)
        let again = roundTrip(packet)
        precondition(
            packet.type == again.type && packet.id == again.id && packet.endpoint == again.endpoint,
            "round trip changed the packet's header")
        checkRealtime(packet)
    } catch {
        check(error, length: text.utf8.count)
    }
}

/// Decodes `packet.encoded`, and checks that the result is a fixed point of encoding.
@discardableResult
private func roundTrip(_ packet: SocketIOPacket) -> SocketIOPacket {
    let encoded = packet.encoded
    guard let again = try? SocketIOPacket(decoding: encoded) else {
        preconditionFailure("encoded packet does not decode")
    }
    precondition(again.encoded == encoded, "re-encoding changed the text")
    precondition((try? SocketIOPacket(decoding: again.encoded)) == again, "decode(encode(p)) != p")
    return again
}

private func checkBatch(_ text: String) {
    do {
        let packets = try SocketIOFrameBatch.decode(text)
        precondition(!packets.isEmpty, "empty batch accepted")
        let frame = SocketIOFrameBatch.encode(packets)
        guard let again = try? SocketIOFrameBatch.decode(frame) else { preconditionFailure("encoded batch fails") }
        precondition(again.count == packets.count, "batch round trip changed the count")
        precondition(SocketIOFrameBatch.encode(again) == frame, "batch re-encoding changed the frame")
    } catch {
        check(error, length: max(text.utf8.count, text.utf16.count))
    }
}

private func checkBuiltPackets(_ text: String) {
    // Bytes, not Characters: a ':' followed by a combining mark is one Character but still a separator.
    let endpoint = String(decoding: text.utf8.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)
    let reason = String(decoding: text.utf8.prefix { $0 != UInt8(ascii: "+") }, as: UTF8.self)
    let packets = [
        SocketIOPacket(.message(text)),
        SocketIOPacket(
            .message(text), id: SocketIOPacketID(UInt64(text.utf8.count), ackWithData: true), endpoint: endpoint),
        SocketIOPacket(.connect(query: text), endpoint: endpoint),
        SocketIOPacket(.disconnect, endpoint: endpoint),
        .event(text, [.string(text), .array([.string(text)])]),
        SocketIOPacket(.json(.object([text: .string(text)]))),
        SocketIOPacket(.ack(id: 1, args: [.string(text)])),
        SocketIOPacket(.error(reason: reason, advice: text)),
    ]
    for packet in packets {
        precondition((try? SocketIOPacket(decoding: packet.encoded)) == packet, "built packet does not round trip")
    }
    precondition((try? SocketIOFrameBatch.decode(SocketIOFrameBatch.encode(packets))) == packets, "batch round trip")
}

private func checkHandshake(_ text: String) {
    do {
        let handshake = try SocketIOHandshake(parsing: text)
        precondition(SocketIOHandshake.isValidSID(handshake.sid), "invalid sid accepted")
        precondition((try? SocketIOHandshake(parsing: handshake.encoded)) == handshake, "handshake round trip")
    } catch {
        check(error, length: nil)
    }
}

private func checkPath(_ text: String) {
    guard let path = SocketIOPath(target: text) else { return }
    precondition(text.hasPrefix(SocketIOPath.prefix), "path without the prefix accepted")
    precondition(SocketIOPath(target: path.path) == path, "path round trip")
}

private func checkRealtime(_ packet: SocketIOPacket) {
    if let subscription = try? BmobRealtimeSubscription(packet: packet) {
        precondition(!subscription.appKey.isEmpty && !subscription.tableName.isEmpty, "empty names accepted")
        precondition(!subscription.action.isRowAction || !subscription.objectId.isEmpty, "row without objectId")
        let again = try? BmobRealtimeSubscription(packet: roundTrip(subscription.packet()))
        precondition(again == subscription, "subscription round trip")
    }
    do {
        let publication = try BmobRealtimePublication(packet: packet)
        let again = try BmobRealtimePublication(packet: roundTrip(publication.packet()))
        precondition(
            again.tableName == publication.tableName && again.objectId == publication.objectId
                && again.actionName == publication.actionName && again.appKey == publication.appKey,
            "publication round trip changed a field")
        if let objectId = again.objectId { precondition(!objectId.isEmpty, "empty objectId after fallback") }
    } catch {
        check(error, length: nil)
    }
}

private func check(_ error: SocketIOError, length: Int?) {
    precondition(!error.message.isEmpty, "empty message")
    if let length, let offset = error.offset {
        precondition((0...length).contains(offset), "offset outside the text")
    }
}
