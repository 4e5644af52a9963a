extension JSONWebToken {
    /// Decodes base64url without padding (RFC 4648 §5, as RFC 7515 §2 uses it), or returns `nil` for a
    /// character outside `A–Z a–z 0–9 - _`, padding, a length that leaves a lone character, or non-zero
    /// leftover bits (so each byte string has exactly one accepted encoding).
    ///
    /// - Parameter utf8: The encoded text's UTF-8, e.g. one part of a compact JWS or a JWK's `n`.
    /// - Returns: The bytes, or `nil` when `utf8` is not canonical base64url.
    package static func decodeBase64URL(_ utf8: some Collection<UInt8>) -> [UInt8]? {
        guard utf8.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in utf8 {
            guard let value = sextet(character) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        // Two or four bits may be left over; a canonical encoder leaves them zero.
        guard accumulator == 0 else { return nil }
        return output
    }

    /// The 6-bit value of one base64url character.
    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
