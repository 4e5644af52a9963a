/// Decodes WebSocket frames from a byte stream: a pure state machine, bytes in and frames out.
///
/// Feed bytes with ``append(_:)`` as they arrive, split anywhere, then call ``next()`` until it returns `nil`
/// (more bytes needed). Each call yields one complete frame with its payload unmasked. A rule broken by the
/// peer throws a ``WebSocketProtocolError`` carrying the close code to send; it is thrown as soon as the
/// offending header bytes arrive (before any payload is buffered), and every later call throws it again.
///
/// Checked per frame (RFC 6455 §5):
/// - masking: required on frames a server receives, forbidden on frames a client receives (1002);
/// - reserved bits set, with no extension negotiated (1002); reserved opcodes (1002);
/// - control frames longer than 125 bytes or without FIN (1002);
/// - a length not in its shortest form, or a 64-bit length with the top bit set (1002);
/// - a payload longer than ``maximumMessageSize`` (1009).
///
/// Message-level rules (fragment order, UTF-8, the size of a whole message) belong to
/// ``WebSocketStateMachine``.
package struct WebSocketFrameDecoder: Sendable {
    /// Which end this decoder works for; it decides the masking rule.
    package let role: WebSocketRole
    /// The largest payload accepted in one frame, in bytes.
    package let maximumMessageSize: Int

    private var buffer: [UInt8] = []
    /// First unread byte in `buffer`.
    private var start = 0
    private var failure: WebSocketProtocolError?

    /// A decoder with an empty buffer.
    ///
    /// - Parameters:
    ///   - role: the end of the connection the decoder works for.
    ///   - maximumMessageSize: the largest payload accepted in one frame; larger frames fail with 1009.
    package init(role: WebSocketRole, maximumMessageSize: Int = 16 * 1024 * 1024) {
        precondition(maximumMessageSize >= 125, "the maximum message size must fit any control frame")
        self.role = role
        self.maximumMessageSize = maximumMessageSize
    }

    /// Bytes received but not yet decoded.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    ///
    /// - Parameter bytes: the next bytes of the stream, in order.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 4096 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or `nil` when more bytes are needed.
    ///
    /// - Returns: a frame whose payload is unmasked; its ``WebSocketFrame/maskingKey`` is the key it arrived with.
    /// - Throws: ``WebSocketProtocolError`` when the bytes break the protocol; the decoder stays failed.
    package mutating func next() throws(WebSocketProtocolError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            return try decode()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func decode() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        let fin = first & 0x80 != 0
        guard first & 0x70 == 0 else {
            throw WebSocketProtocolError(.protocolError, "reserved bits set without an extension")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw WebSocketProtocolError(.protocolError, "reserved opcode")
        }
        let masked = second & 0x80 != 0
        switch role {
        case .server where !masked:
            throw WebSocketProtocolError(.protocolError, "unmasked client frame")
        case .client where masked:
            throw WebSocketProtocolError(.protocolError, "masked server frame")
        default:
            break
        }
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            guard fin else { throw WebSocketProtocolError(.protocolError, "fragmented control frame") }
            guard shortLength <= 125 else { throw WebSocketProtocolError(.protocolError, "control frame too long") }
        }

        var headerSize = 2
        let length: Int
        switch shortLength {
        case 126:
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            guard length > 125 else { throw WebSocketProtocolError(.protocolError, "length not in shortest form") }
            headerSize = 4
        case 127:
            guard available >= 10 else { return nil }
            guard buffer[start + 2] & 0x80 == 0 else {
                throw WebSocketProtocolError(.protocolError, "64-bit length with the top bit set")
            }
            var wide: UInt64 = 0
            for index in 2..<10 { wide = wide << 8 | UInt64(buffer[start + index]) }
            guard wide > 0xFFFF else { throw WebSocketProtocolError(.protocolError, "length not in shortest form") }
            guard wide <= UInt64(maximumMessageSize) else {
                throw WebSocketProtocolError(.messageTooBig, "frame larger than the maximum message size")
            }
            length = Int(wide)
            headerSize = 10
        default:
            length = shortLength
        }
        guard length <= maximumMessageSize else {
            throw WebSocketProtocolError(.messageTooBig, "frame larger than the maximum message size")
        }

        var maskingKey: WebSocketMaskingKey?
        if masked {
            guard available >= headerSize + 4 else { return nil }
            maskingKey = WebSocketMaskingKey(Array(buffer[(start + headerSize)..<(start + headerSize + 4)]))
            headerSize += 4
        }
        guard available - headerSize >= length else { return nil }
        let payloadStart = start + headerSize
        var payload = Array(buffer[payloadStart..<(payloadStart + length)])
        maskingKey?.apply(to: &payload)
        start = payloadStart + length
        return WebSocketFrame(fin: fin, opcode: opcode, maskingKey: maskingKey, payload: payload)
    }
}
