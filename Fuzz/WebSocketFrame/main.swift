import BmobWire

/// libFuzzer entry point for WebSocket frames: ``WebSocketFrameDecoder`` and ``WebSocketStateMachine`` in both
/// roles. The first input byte seeds how the rest is cut into chunks; the rest is the byte stream.
///
/// Checked with preconditions:
/// - decoding in chunks gives the same frames and error as decoding the whole stream at once;
/// - every decoded frame re-encodes to exactly the bytes it was decoded from;
/// - errors carry 1002 or 1009 (decoder) or 1002, 1007, 1009 (state machine), all sendable close codes;
/// - the state machine gives the same actions whatever the chunking, and after a close action it is closed;
/// - delivered messages respect the maximum size, pongs echo a ping, and nothing follows `closed`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let chunks = chunkSizes(seed: input[0], count: size - 1)
    let stream = Array(input.dropFirst())
    for role in [WebSocketRole.server, .client] {
        let whole = decodeFrames(stream, role: role, chunks: [stream.count])
        let split = decodeFrames(stream, role: role, chunks: chunks)
        precondition(whole.frames == split.frames && whole.error == split.error, "chunking changed decoded frames")
        let actions = runMachine(stream, role: role, chunks: [stream.count])
        precondition(runMachine(stream, role: role, chunks: chunks) == actions, "chunking changed actions")
        // Frames from the other role's decoder have passed every header rule but masking, which the machine
        // does not look at: drive the machine with them directly as well.
        var machine = WebSocketStateMachine(role: role == .server ? .client : .server, maximumMessageSize: maximum)
        for frame in whole.frames {
            if let action = machine.frameReceived(frame) { check(action, machine: machine, frame: frame) }
        }
    }
    return 0
}

/// Small enough that the fuzzer reaches the size limits.
private let maximum = 300

/// Chunk sizes (1…16) covering `count` bytes, from a SplitMix64 sequence seeded by `seed`.
private func chunkSizes(seed: UInt8, count: Int) -> [Int] {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
    var sizes: [Int] = []
    var total = 0
    while total < count {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        let size = min(Int((z ^ (z >> 31)) % 16) + 1, count - total)
        sizes.append(size)
        total += size
    }
    return sizes
}

private func decodeFrames(
    _ stream: [UInt8], role: WebSocketRole, chunks: [Int]
) -> (frames: [WebSocketFrame], error: WebSocketProtocolError?) {
    var decoder = WebSocketFrameDecoder(role: role, maximumMessageSize: maximum)
    var frames: [WebSocketFrame] = []
    var appended = 0
    var consumed = 0
    for size in chunks {
        decoder.append(stream[appended..<(appended + size)])
        appended += size
        while true {
            let frame: WebSocketFrame?
            do {
                frame = try decoder.next()
            } catch {
                precondition([1002, 1009].contains(error.closeCode.rawValue), "decoder error \(error)")
                precondition(error.closeCode.isSendable && !error.reason.isEmpty, "unsendable error")
                return (frames, error)
            }
            guard let frame else { break }
            let end = appended - decoder.bufferedByteCount
            precondition(frame.encoded() == Array(stream[consumed..<end]), "frame does not re-encode to its bytes")
            precondition(frame.payload.count <= maximum, "frame over the maximum")
            precondition((role == .server) == (frame.maskingKey != nil), "masking rule not enforced")
            precondition(!frame.opcode.isControl || (frame.fin && frame.payload.count <= 125), "bad control frame")
            consumed = end
            frames.append(frame)
        }
    }
    precondition(appended - decoder.bufferedByteCount == consumed, "bytes lost")
    return (frames, nil)
}

private func runMachine(_ stream: [UInt8], role: WebSocketRole, chunks: [Int]) -> [WebSocketStateMachine.Action] {
    var machine = WebSocketStateMachine(role: role, maximumMessageSize: maximum)
    var actions: [WebSocketStateMachine.Action] = []
    var offset = 0
    for size in chunks {
        machine.bytesReceived(stream[offset..<(offset + size)])
        offset += size
        while let action = machine.nextAction() {
            precondition(actions.last != .closed, "action after closed")
            check(action, machine: machine, frame: nil)
            actions.append(action)
        }
    }
    if machine.state == .open {
        precondition(machine.closeRequested() == .close(.normalClosure, reason: ""), "open machine refused to close")
        precondition(machine.state == .closing, "close request did not start closing")
    }
    return actions
}

private func check(_ action: WebSocketStateMachine.Action, machine: WebSocketStateMachine, frame: WebSocketFrame?) {
    switch action {
    case .deliver(let message):
        precondition(machine.state == .open, "delivered while not open")
        switch message {
        case .text(let text): precondition(text.utf8.count <= maximum, "text message over the maximum")
        case .binary(let bytes): precondition(bytes.count <= maximum, "binary message over the maximum")
        }
    case .send(let reply):
        precondition(reply.maskingKey == nil && reply.fin && reply.payload.count <= 125, "bad reply frame")
        switch reply.opcode {
        case .pong:
            if let frame { precondition(frame.opcode == .ping && frame.payload == reply.payload, "pong does not echo") }
        case .close:
            precondition(machine.state == .closed, "close reply while not closed")
            precondition(reply.payload.count == 0 || reply.payload.count == 2, "close reply is not an echo")
            if reply.payload.count == 2 {
                let code = WebSocketCloseCode(rawValue: UInt16(reply.payload[0]) << 8 | UInt16(reply.payload[1]))
                precondition(code.isSendable && machine.receivedCloseCode == code, "close reply echoes another code")
            }
        default:
            preconditionFailure("unexpected frame sent: \(reply.opcode)")
        }
    case .close(let code, let reason):
        precondition([1002, 1007, 1009].contains(code.rawValue) && !reason.isEmpty, "unexpected close \(code)")
        precondition(machine.state == .closed, "failed machine is not closed")
    case .closed:
        precondition(machine.state == .closed, "closed action while not closed")
    }
}
