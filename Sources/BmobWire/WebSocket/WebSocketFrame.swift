/// One WebSocket frame (RFC 6455 §5.2): header bits, an optional masking key and the payload.
///
/// ``payload`` always holds the application bytes, unmasked; ``maskingKey`` says how they are masked on the
/// wire. A server sends frames without a key; a client gives every frame a fresh
/// ``WebSocketMaskingKey/random(using:)`` key before encoding it.
///
/// ## Topics
/// ### Making frames
/// - ``init(fin:rsv1:rsv2:rsv3:opcode:maskingKey:payload:)``
/// - ``close(code:reason:)``
/// ### Encoding
/// - ``encoded()``
/// - ``encode(into:)``
/// - ``maximumHeaderSize``
package struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the last frame of its message.
    package var fin: Bool
    /// Reserved bit 1 (permessage-deflate's "compressed" flag); must be clear without an extension.
    package var rsv1: Bool
    /// Reserved bit 2; must be clear without an extension.
    package var rsv2: Bool
    /// Reserved bit 3; must be clear without an extension.
    package var rsv3: Bool
    /// What the frame carries.
    package var opcode: WebSocketOpcode
    /// The key the payload is masked with on the wire, or `nil` for an unmasked (server) frame.
    package var maskingKey: WebSocketMaskingKey?
    /// The application bytes, unmasked.
    package var payload: [UInt8]

    /// The longest frame header: two bytes, a 64-bit length and a masking key.
    package static let maximumHeaderSize = 14

    /// A frame.
    ///
    /// - Parameters:
    ///   - fin: whether the frame ends its message; `true` for control frames.
    ///   - rsv1: reserved bit 1.
    ///   - rsv2: reserved bit 2.
    ///   - rsv3: reserved bit 3.
    ///   - opcode: what the frame carries.
    ///   - maskingKey: the key to mask with when encoding, or `nil` for a server frame.
    ///   - payload: the unmasked application bytes.
    package init(
        fin: Bool = true,
        rsv1: Bool = false,
        rsv2: Bool = false,
        rsv3: Bool = false,
        opcode: WebSocketOpcode,
        maskingKey: WebSocketMaskingKey? = nil,
        payload: [UInt8] = []
    ) {
        self.fin = fin
        self.rsv1 = rsv1
        self.rsv2 = rsv2
        self.rsv3 = rsv3
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }

    /// A close frame carrying `code` and `reason`, or an empty close frame when `code` is `nil`.
    ///
    /// - Parameters:
    ///   - code: the status code; must be ``WebSocketCloseCode/isSendable`` when present.
    ///   - reason: UTF-8 text, cut at a character boundary so the payload stays within 125 bytes.
    /// - Returns: an unmasked, final close frame.
    package static func close(code: WebSocketCloseCode?, reason: String = "") -> Self {
        guard let code else { return Self(opcode: .close) }
        precondition(code.isSendable, "close code \(code) may not be sent")
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        for character in reason {
            let bytes = Array(String(character).utf8)
            guard payload.count + bytes.count <= 125 else { break }
            payload += bytes
        }
        return Self(opcode: .close, payload: payload)
    }

    /// The frame's wire bytes: header, extended length, masking key and (masked) payload, with the length
    /// in its shortest form (7, 16 or 64 bits).
    ///
    /// - Returns: the encoded frame.
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.maximumHeaderSize + payload.count)
        encode(into: &bytes)
        return bytes
    }

    /// Appends the frame's wire bytes to `buffer`.
    ///
    /// - Parameter buffer: the output buffer; existing bytes are kept.
    package func encode(into buffer: inout [UInt8]) {
        var first = opcode.rawValue
        if fin { first |= 0x80 }
        if rsv1 { first |= 0x40 }
        if rsv2 { first |= 0x20 }
        if rsv3 { first |= 0x10 }
        buffer.append(first)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        let length = payload.count
        if length <= 125 {
            buffer.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            buffer += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            buffer.append(maskBit | 127)
            let wide = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: wide >> UInt64(shift)))
            }
        }
        guard let maskingKey else {
            buffer += payload
            return
        }
        buffer += maskingKey.bytes
        var masked = payload
        maskingKey.apply(to: &masked)
        buffer += masked
    }
}
