/// Several socket.io 0.9 packets in one frame: `\u{FFFD}<length>\u{FFFD}<packet>` for each.
///
/// socket.io 0.9 writes lengths as JavaScript's `String.length` counts, in UTF-16 code units: `é` counts 1 and
/// `😀` counts 2. This type counts the same way (`String.utf16.count`), so batches agree with JavaScript and
/// Objective-C (`NSString.length`) peers. A frame that does not start with `\u{FFFD}` is a single packet.
package enum SocketIOFrameBatch {
    /// The delimiter around each length, U+FFFD.
    package static let delimiter: Character = "\u{FFFD}"
    /// The longest length accepted, in digits.
    package static let maximumLengthDigits = 9

    /// The packets' texts in a frame, without decoding them.
    ///
    /// - Parameter frame: A WebSocket text message.
    /// - Returns: The frame itself when it is not a batch; otherwise each member, none of them empty.
    /// - Throws: ``SocketIOError`` with ``SocketIOError/Code/invalidFrame`` when a length is missing, not
    ///   digits, zero, longer than ``maximumLengthDigits`` or past the end, or splits a surrogate pair; offsets
    ///   are in UTF-16 code units.
    package static func split(_ frame: String) throws(SocketIOError) -> [Substring] {
        let utf16 = frame.utf16
        let mark: UInt16 = 0xFFFD
        guard let first = utf16.first, first == mark else { return [Substring(frame)] }
        func offset(_ index: String.Index) -> Int { utf16.distance(from: utf16.startIndex, to: index) }
        var members: [Substring] = []
        var index = utf16.index(after: utf16.startIndex)
        while true {
            // <digits> then U+FFFD.
            let lengthStart = index
            var length = 0
            while index != utf16.endIndex, utf16[index] != mark {
                let unit = utf16[index]
                guard unit >= 0x30, unit <= 0x39 else {
                    throw SocketIOError(.invalidFrame, "batch length must be digits", offset: offset(index))
                }
                guard utf16.distance(from: lengthStart, to: index) < maximumLengthDigits else {
                    throw SocketIOError(.invalidFrame, "batch length too long", offset: offset(lengthStart))
                }
                length = length * 10 + Int(unit - 0x30)
                index = utf16.index(after: index)
            }
            guard index != utf16.endIndex else {
                throw SocketIOError(.invalidFrame, "batch length not closed by U+FFFD", offset: offset(lengthStart))
            }
            guard length > 0 else {
                throw SocketIOError(
                    .invalidFrame, "batch length must be a positive number", offset: offset(lengthStart))
            }
            let start = utf16.index(after: index)
            guard let end = utf16.index(start, offsetBy: length, limitedBy: utf16.endIndex) else {
                throw SocketIOError(
                    .invalidFrame, "batch length past the end of the frame", offset: offset(lengthStart))
            }
            guard start.samePosition(in: frame.unicodeScalars) != nil,
                end.samePosition(in: frame.unicodeScalars) != nil
            else {
                throw SocketIOError(.invalidFrame, "batch length splits a surrogate pair", offset: offset(end))
            }
            members.append(frame[start..<end])
            guard end != utf16.endIndex else { return members }
            guard utf16[end] == mark else {
                throw SocketIOError(.invalidFrame, "expected U+FFFD after a batch member", offset: offset(end))
            }
            index = utf16.index(after: end)
        }
    }

    /// The packets in a frame, batched or not.
    ///
    /// - Parameter frame: A WebSocket text message.
    /// - Returns: The packets, in order.
    /// - Throws: ``SocketIOError`` for a malformed batch or packet (a packet's offsets are its own).
    package static func decode(_ frame: String) throws(SocketIOError) -> [SocketIOPacket] {
        var packets: [SocketIOPacket] = []
        for member in try split(frame) {
            packets.append(try SocketIOPacket(decoding: member))
        }
        return packets
    }

    /// The frame for `packets`: the packet's text alone for one, a batch for several, empty for none.
    ///
    /// - Parameter packets: The packets to send in one frame.
    /// - Returns: The frame's text.
    package static func encode(_ packets: [SocketIOPacket]) -> String {
        join(packets.map(\.encoded))
    }

    /// The frame for packet texts: the text alone for one, a batch for several, empty for none.
    ///
    /// - Parameter texts: Encoded packets; an empty one is a programmer error, as a batch cannot hold it.
    /// - Returns: The frame's text.
    package static func join(_ texts: [String]) -> String {
        if texts.count == 1 { return texts[0] }
        var frame = ""
        for text in texts {
            precondition(!text.isEmpty, "a socket.io batch cannot hold an empty packet")
            frame.append(delimiter)
            frame += String(text.utf16.count)
            frame.append(delimiter)
            frame += text
        }
        return frame
    }
}
