import BmobWire

/// libFuzzer entry point for Pusher input from the network: ``PusherFrame``, ``PusherClientMessage`` (both
/// prefixes), ``PusherChannelName``, ``PusherSocketId``, ``PusherChannelData`` and ``PusherUserData``.
///
/// The bytes are decoded as a frame as they are (so invalid UTF-8 reaches the parser), and read as text for the
/// rest. Checked with preconditions:
/// - a decoded frame encodes to text that decodes (without a size limit) to a frame with the same event, channel
///   and user id; that second frame is a fixed point of encoding and decoding (the first may differ only where
///   JSON wrote an integral double such as `1.0`, which encodes as `1` and comes back as an integer);
/// - frames built around the input (event name, channel, string data, user id) round trip exactly;
/// - a client message decoded from a frame is decoded again from the re-encoded frame;
/// - an accepted channel name or socket id survives validation again, and prefix translation round trips for
///   protocol and internal events and for names no family reserves;
/// - every rejection is a ``PusherProtocolError`` with a message, and only errors with a code close the
///   connection.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    checkFrame(bytes)
    checkBuiltFrames(text)
    checkNames(text)
    checkPayloads(text)
    return 0
}

private func checkFrame(_ bytes: UnsafeBufferPointer<UInt8>) {
    for limit in [PusherFrame.defaultMaximumBytes, Int.max] {
        do {
            let frame = try PusherFrame(decoding: bytes, maximumBytes: limit)
            let again = roundTrip(frame)
            precondition(
                again.event == frame.event && again.channel == frame.channel && again.userId == frame.userId,
                "round trip changed the frame's event, channel or user id")
            for prefix in PusherEventPrefix.allCases {
                checkClientMessage(frame, again: again, prefix: prefix)
            }
        } catch {
            check(error)
        }
    }
}

/// Decodes `frame.encoded`, and checks that the result is a fixed point of encoding and decoding.
private func roundTrip(_ frame: PusherFrame) -> PusherFrame {
    let encoded = frame.encoded
    guard let again = try? PusherFrame(decoding: encoded, maximumBytes: .max) else {
        preconditionFailure("encoded frame does not decode")
    }
    precondition(again.encoded == encoded || frame != again, "re-encoding an unchanged frame changed its text")
    let third = try? PusherFrame(decoding: again.encoded, maximumBytes: .max)
    precondition(third == again, "decode(encode(f)) != f")
    precondition(third?.encoded == again.encoded, "encoding is not a fixed point")
    return again
}

private func checkClientMessage(_ frame: PusherFrame, again: PusherFrame, prefix: PusherEventPrefix) {
    do {
        let message = try PusherClientMessage(frame: frame, prefix: prefix)
        guard let second = try? PusherClientMessage(frame: again, prefix: prefix) else {
            preconditionFailure("a client message does not decode after a round trip")
        }
        switch (message, second) {
        case (.subscribe(let c1, let a1, let d1), .subscribe(let c2, let a2, let d2)):
            precondition(c1 == c2 && a1 == a2 && d1 == d2, "subscribe changed in a round trip")
        case (.signin(let a1, let u1), .signin(let a2, let u2)):
            precondition(a1 == a2 && u1 == u2, "signin changed in a round trip")
        case (.unsubscribe(let c1), .unsubscribe(let c2)):
            precondition(c1 == c2, "unsubscribe changed in a round trip")
        case (.clientEvent(let n1, let c1, _), .clientEvent(let n2, let c2, _)):
            precondition(n1 == n2 && c1 == c2, "client event changed in a round trip")
            precondition(n1.utf8.starts(with: "client-".utf8), "client event without the client- prefix")
        case (.ping, .ping), (.pong, .pong):
            break
        default:
            preconditionFailure("a client message changed kind in a round trip")
        }
    } catch {
        check(error)
    }
}

private func checkBuiltFrames(_ text: String) {
    let channel = try? PusherChannelName(validating: text)
    let frames = [
        PusherFrame(event: "e", channel: channel, data: .string(text), userId: text),
        PusherFrame(event: "e", data: .object([text: .array([.string(text), .null])])),
        PusherServerMessage(prefix: .bird).error(code: nil, message: text),
        PusherServerMessage(prefix: .pusher).signinSuccess(userData: text),
    ]
    for frame in frames {
        precondition((try? PusherFrame(decoding: frame.encoded, maximumBytes: .max)) == frame, "built frame")
    }
    if !text.isEmpty, text.utf16.count <= PusherFrame.maximumEventNameLength {
        let frame = PusherFrame(event: text, channel: channel)
        precondition((try? PusherFrame(decoding: frame.encoded, maximumBytes: .max)) == frame, "built event name")
    }
}

private func checkNames(_ text: String) {
    do {
        let channel = try PusherChannelName(validating: text)
        precondition(channel.rawValue == text, "channel name changed")
        precondition(text.utf8.count <= PusherChannelName.maximumLength, "over-long channel name accepted")
        precondition((try? PusherChannelName(validating: channel.rawValue)) == channel, "channel revalidation")
        precondition((channel.kind == .serverToUser) == (channel.serverToUserId != nil), "server-to-user id")
    } catch {
        check(error)
    }
    do {
        let socket = try PusherSocketId(validating: text)
        precondition(socket.rawValue == text && PusherSocketId.isValid(text), "socket id changed")
        precondition(text.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }, "socket id chars")
    } catch {
        check(error)
    }
    for prefix in PusherEventPrefix.allCases {
        // Protocol and internal events, and names reserved in no family, translate back; a plain name that another
        // family reserves (`bird:x` on a pusher connection) cannot.
        let isFamilyEvent: Bool =
            switch prefix.classify(text) {
            case .protocolEvent, .internalEvent: true
            case .clientEvent, .applicationEvent: false
            }
        guard isFamilyEvent || !PusherEventPrefix.isReserved(text) else { continue }
        for other in PusherEventPrefix.allCases {
            let translated = other.translate(text, from: prefix)
            precondition(prefix.translate(translated, from: other) == text, "prefix translation round trip")
        }
    }
}

private func checkPayloads(_ text: String) {
    do {
        let member = try PusherChannelData(parsing: text)
        precondition(!member.userId.isEmpty, "empty user id accepted")
        var members = PusherPresenceMembers()
        do {
            let added = try members.add(socket: PusherSocketId(1, 1), userId: member.userId, userInfo: member.userInfo)
            precondition(added && members.count == 1, "first member not added")
            precondition(members.remove(socket: PusherSocketId(1, 1)) == member.userId, "last socket not removed")
        } catch {
            check(error)
        }
    } catch {
        check(error)
    }
    do {
        let user = try PusherUserData(parsing: text)
        precondition((try? PusherChannelName.serverToUser(user.id)) != nil, "user id makes no channel")
    } catch {
        check(error)
    }
}

private func check(_ error: PusherProtocolError) {
    precondition(!error.message.isEmpty, "rejection without a message")
    precondition(!error.closesConnection || error.code != nil, "closing without a code")
}
