import BmobCrypto

/// A connection's socket id, `\d+\.\d+` (`pusher.md` §1), such as `123.456`.
///
/// Signatures bind a subscription or signin to it, so parsing is strict: ASCII digits only, exactly one `.`
/// with digits on both sides, at most ``maximumDigits`` digits a side. A lax check let crafted socket ids
/// make auth endpoints sign other channels (advisory GHSA-7v7m-pcw5-h3cg).
package struct PusherSocketId: Sendable, Hashable, CustomStringConvertible {
    /// The most digits accepted on each side of the `.` (a `UInt64` has at most 20).
    package static let maximumDigits = 20

    /// The id as on the wire.
    package let rawValue: String

    /// The id, safe to log.
    package var description: String { rawValue }

    /// Validates a socket id as received.
    ///
    /// - Parameter text: the id, such as a `socket_id` form field.
    /// - Throws: ``PusherProtocolError`` of kind ``PusherProtocolError/Kind/invalidSocketId``.
    package init(validating text: String) throws(PusherProtocolError) {
        guard Self.isValid(text) else {
            throw PusherProtocolError(.invalidSocketId, "socket id must be digits, '.', digits")
        }
        rawValue = text
    }

    /// The id `{first}.{second}`.
    ///
    /// - Parameters:
    ///   - first: the part before the `.`.
    ///   - second: the part after it.
    package init(_ first: UInt64, _ second: UInt64) {
        rawValue = "\(first).\(second)"
    }

    /// A new random id, two numbers below 10⁹ from ``SecureRandom`` (soketi's `rand.rand` shape), so ids cannot
    /// be guessed from others.
    ///
    /// - Returns: the id.
    package static func random() -> Self {
        let bytes = SecureRandom.bytes(16)
        func number(_ slice: ArraySlice<UInt8>) -> UInt64 {
            slice.reduce(0) { $0 << 8 | UInt64($1) } % 1_000_000_000
        }
        return Self(number(bytes[0..<8]), number(bytes[8..<16]))
    }

    /// Whether `text` is `\d+\.\d+` with ASCII digits and at most ``maximumDigits`` on each side.
    ///
    /// - Parameter text: the text to check.
    /// - Returns: `true` for a well-formed id.
    package static func isValid(_ text: String) -> Bool {
        var before = 0
        var after = 0
        var sawDot = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if sawDot { after += 1 } else { before += 1 }
                if before > maximumDigits || after > maximumDigits { return false }
            case UInt8(ascii: ".") where !sawDot:
                sawDot = true
            default:
                return false
            }
        }
        return sawDot && before > 0 && after > 0
    }
}
