#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A packet the fan-out client received, told apart by its first bytes, without a JSON parse: the receive loop
/// sees over a hundred thousand of them a second. ``classify(_:)`` reads socket.io 0.9 packets;
/// ``ChannelsDialect`` maps Pusher frames onto the same cases.
enum FanoutPacket: Equatable {
    /// `5:::{"name":"server_pub",…}` carrying the benchmark row's `seq` and `sentAt`.
    case publication(seq: Int, sentAt: UInt64)
    /// A `server_pub` event in which `seq` or `sentAt` could not be found.
    case publicationWithoutFields
    /// `2::` or `2:::`; the client answers `2::`.
    case heartbeat
    /// `1::`, the server's first packet.
    case connect
    /// The `client_send_data` event, after which clients subscribe.
    case ready
    /// `6:::<id>…`, an acknowledgement.
    case ack(id: Int)
    /// `7:::reason`.
    case error(String)
    /// `0::`.
    case disconnect
    /// A packet that needs nothing (a Pusher `pusher:pong`).
    case ignored
    /// Anything else.
    case other

    /// Tells what `payload` is.
    ///
    /// - Parameter payload: a text frame's payload.
    /// - Returns: the packet.
    static func classify(_ payload: UnsafeRawBufferPointer) -> FanoutPacket {
        guard payload.count >= 2, payload[1] == UInt8(ascii: ":") else { return .other }
        switch payload[0] {
        case UInt8(ascii: "5"):
            let head = UnsafeRawBufferPointer(rebasing: payload.prefix(64))
            if find("server_pub", in: head, from: 0) != nil {
                guard let seq = number(after: "seq", in: payload), let sentAt = number(after: "sentAt", in: payload)
                else { return .publicationWithoutFields }
                return .publication(seq: Int(seq), sentAt: sentAt)
            }
            return find("client_send_data", in: head, from: 0) != nil ? .ready : .other
        case UInt8(ascii: "2"): return .heartbeat
        case UInt8(ascii: "1"): return .connect
        case UInt8(ascii: "0"): return .disconnect
        case UInt8(ascii: "6"):
            // 6:::<id>[+<args>]
            guard let start = find(":::", in: payload, from: 1) else { return .other }
            return .ack(id: Int(digits(in: payload, from: start + 3)?.value ?? 0))
        case UInt8(ascii: "7"):
            let text = String(decoding: payload.dropFirst(4), as: UTF8.self)
            return .error(String(text.prefix(200)))
        default:
            return .other
        }
    }

    /// The unsigned integer after the JSON key `key`, which may be escaped inside a JSON string
    /// (`\"key\":123`) or not (`"key":123`); the channels dialect reads its events with it too.
    static func number(after key: StaticString, in payload: UnsafeRawBufferPointer) -> UInt64? {
        var from = 0
        while let at = find(key, in: payload, from: from) {
            from = at + key.utf8CodeUnitCount
            // The key must be a whole JSON key: a quote right before it, and `"`, `\` and `:` after.
            guard at > 0, payload[at - 1] == UInt8(ascii: "\"") else { continue }
            var index = from
            var sawColon = false
            while index < payload.count, index < from + 4 {
                let byte = payload[index]
                if byte == UInt8(ascii: ":") {
                    sawColon = true
                } else if byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: " ") {
                    break
                }
                index += 1
            }
            guard sawColon else { continue }
            return digits(in: payload, from: index)?.value
        }
        return nil
    }

    private static func digits(in payload: UnsafeRawBufferPointer, from start: Int) -> (value: UInt64, end: Int)? {
        var value: UInt64 = 0
        var index = start
        while index < payload.count, payload[index] >= 0x30, payload[index] <= 0x39, index - start < 19 {
            value = value * 10 + UInt64(payload[index] - 0x30)
            index += 1
        }
        return index > start ? (value, index) : nil
    }

    /// Where `needle` first occurs in `haystack` at or after `from`.
    private static func find(_ needle: StaticString, in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard count > 0, haystack.count - from >= count else { return nil }
        let bytes = UnsafeRawBufferPointer(start: needle.utf8Start, count: count)
        let first = bytes[0]
        var index = from
        let last = haystack.count - count
        while index <= last {
            if haystack[index] == first && memcmp(haystack.baseAddress! + index, bytes.baseAddress!, count) == 0 {
                return index
            }
            index += 1
        }
        return nil
    }
}
