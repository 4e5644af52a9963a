/// An incremental UTF-8 checker (RFC 3629), fed a text message fragment by fragment.
///
/// It rejects a message at the first byte that cannot start or continue a valid sequence, so a peer sending
/// bad text fails fast, even in a non-final fragment: stray continuation bytes, overlong forms (C0, C1,
/// E0 80–9F, F0 80–8F), UTF-16 surrogates (ED A0–BF), code points above U+10FFFF (F4 90–BF, F5–FF), and
/// sequences cut short by a new lead byte. A sequence split across fragments is fine; one still open at
/// the end of the message is not (``isComplete``).
package struct WebSocketUTF8Validator: Sendable, Hashable {
    /// Continuation bytes still expected in the current sequence.
    private var remaining = 0
    /// Allowed range for the next continuation byte (narrower than 80–BF right after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// A validator at the start of a message.
    package init() {}

    /// Whether the bytes so far end on a character boundary.
    package var isComplete: Bool { remaining == 0 }

    /// Checks the next bytes of the message.
    ///
    /// - Parameter bytes: the next bytes, in order.
    /// - Returns: `false` as soon as the bytes cannot be valid UTF-8 whatever follows; the validator is then
    ///   unusable.
    package mutating func consume(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            if remaining > 0 {
                guard byte >= lower && byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
                continue
            }
            switch byte {
            case 0x00...0x7F:
                continue
            case 0xC2...0xDF:
                remaining = 1
            case 0xE0:
                remaining = 2
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF:
                remaining = 2
            case 0xED:
                remaining = 2
                upper = 0x9F
            case 0xF0:
                remaining = 3
                lower = 0x90
            case 0xF1...0xF3:
                remaining = 3
            case 0xF4:
                remaining = 3
                upper = 0x8F
            default:
                return false
            }
        }
        return true
    }
}
