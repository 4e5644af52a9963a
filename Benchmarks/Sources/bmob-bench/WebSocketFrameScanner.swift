/// Finds frames in bytes a WebSocket client received, in place: the receive loop reads into one shared buffer
/// and handles each payload where it lies, so a delivery costs no allocation. BmobWire's
/// `WebSocketFrameDecoder` copies every payload into an array of its own, which is right for a server
/// connection and too much for ten thousand client connections in one benchmark process.
enum WebSocketFrameScanner {
    /// One frame's header facts and where its payload lies.
    struct Frame {
        /// Whether the frame ends its message.
        var fin: Bool
        /// The low four bits of the first byte.
        var opcode: UInt8
        /// The payload's byte range in the scanned buffer (unmasked: servers do not mask).
        var payload: Range<Int>
    }

    /// Frames larger than this are refused; the server's events are a few hundred bytes.
    static let maximumPayload = 1 << 20

    /// The frame starting at `offset`, or `nil` when the buffer ends before it does.
    ///
    /// - Parameters:
    ///   - bytes: received bytes.
    ///   - offset: where a frame starts.
    /// - Returns: the frame; the next one starts at `frame.payload.upperBound`.
    /// - Throws: ``WebSocketFrameScanner/Violation`` for a masked frame, reserved bits or an oversized length.
    static func frame(in bytes: UnsafeRawBufferPointer, at offset: Int) throws(Violation) -> Frame? {
        let available = bytes.count - offset
        guard available >= 2 else { return nil }
        let first = bytes[offset]
        let second = bytes[offset + 1]
        guard first & 0x70 == 0 else { throw Violation(reason: "reserved bits set") }
        guard second & 0x80 == 0 else { throw Violation(reason: "masked frame from the server") }
        var header = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            var wide: UInt64 = 0
            for index in 2..<10 { wide = wide << 8 | UInt64(bytes[offset + index]) }
            guard wide <= UInt64(maximumPayload) else { throw Violation(reason: "frame of \(wide) bytes") }
            length = Int(wide)
            header = 10
        }
        guard length <= maximumPayload else { throw Violation(reason: "frame of \(length) bytes") }
        guard available >= header + length else { return nil }
        let start = offset + header
        return Frame(fin: first & 0x80 != 0, opcode: first & 0x0F, payload: start..<(start + length))
    }

    /// Bytes a client must refuse.
    struct Violation: Error, CustomStringConvertible {
        /// What was wrong.
        var reason: String
        var description: String { "WebSocket protocol violation: \(reason)" }
    }
}
