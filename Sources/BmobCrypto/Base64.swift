/// Base64 (RFC 4648), the one codec of SDK and server, over three alphabets:
///
/// - ``Alphabet/standard`` padded, decoded leniently (``decode(_:alphabet:)``): the native `/8/` envelope and
///   `Accept-Id`, WebSocket keys, mail bodies, the SDK's `Data` values;
/// - ``Alphabet/url`` without padding, decoded strictly (``decodeUnpadded(_:alphabet:requireZeroTrailingBits:)``):
///   JSON Web Tokens and Keys (RFC 7515 §2);
/// - ``Alphabet/standard`` and ``Alphabet/bcrypt`` without padding, decoded strictly: stored password hashes.
///
/// It lives here, in the lowest module both sides use, because BmobCrypto's password hashes need it and
/// BmobCrypto imports nothing of ours; BmobWire makes the name visible to its importers. The generic entry
/// points are inlinable and hand contiguous bytes to non-generic loops, so callers in other modules (the native
/// door decodes every request body with it) pay no generic dispatch per byte.
package enum Base64 {
    /// The 64 symbols of one base64 variant, in value order, and the value of each byte.
    package struct Alphabet: Sendable {
        /// RFC 4648 §4: `A–Z a–z 0–9 + /`.
        package static let standard = Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        /// RFC 4648 §5, "base64url": `A–Z a–z 0–9 - _`.
        package static let url = Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        /// bcrypt's: `. / A–Z a–z 0–9`, with the same bit order as the others.
        package static let bcrypt = Alphabet("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

        /// The symbol of each value 0…63.
        let symbols: [UInt8]
        /// The value of each byte, or ``invalid`` for a byte outside the alphabet.
        let values: [UInt8]
        /// The entry of ``values`` for a byte that is no symbol.
        static let invalid: UInt8 = 0xFF

        private init(_ text: StaticString) {
            let symbols = text.withUTF8Buffer { Array($0) }
            precondition(symbols.count == 64, "a base64 alphabet has 64 symbols")
            var values = [UInt8](repeating: Self.invalid, count: 256)
            for (value, symbol) in symbols.enumerated() {
                values[Int(symbol)] = UInt8(value)
            }
            self.symbols = symbols
            self.values = values
        }
    }

    // MARK: - Encoding

    /// The base64 text of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to encode.
    ///   - alphabet: The symbols to use; ``Alphabet/standard`` by default.
    ///   - padding: Whether the text ends with `=` to a multiple of four characters (the default); without it
    ///     the text is ⌈4·count / 3⌉ characters.
    /// - Returns: The text's ASCII bytes.
    @inlinable
    package static func encode(
        _ bytes: some Collection<UInt8>, alphabet: Alphabet = .standard, padding: Bool = true
    ) -> [UInt8] {
        if let text = bytes.withContiguousStorageIfAvailable({
            encode(buffer: $0, alphabet: alphabet, padding: padding)
        }) {
            return text
        }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0, alphabet: alphabet, padding: padding) }
    }

    /// The base64 text of `bytes` as a string; see ``encode(_:alphabet:padding:)``.
    @inlinable
    package static func encodeString(
        _ bytes: some Collection<UInt8>, alphabet: Alphabet = .standard, padding: Bool = true
    ) -> String {
        String(decoding: encode(bytes, alphabet: alphabet, padding: padding), as: UTF8.self)
    }

    /// The encoder's loop over contiguous bytes.
    @usableFromInline
    static func encode(buffer input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, padding: Bool) -> [UInt8] {
        let whole = input.count / 3
        let rest = input.count - whole * 3
        let length = whole * 4 + (rest == 0 ? 0 : padding ? 4 : rest + 1)
        return alphabet.symbols.withUnsafeBufferPointer { symbols in
            [UInt8](unsafeUninitializedCapacity: length) { output, initialized in
                var index = 0
                var position = 0
                while index < whole * 3 {
                    let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[position] = symbols[Int(value >> 18 & 63)]
                    output[position + 1] = symbols[Int(value >> 12 & 63)]
                    output[position + 2] = symbols[Int(value >> 6 & 63)]
                    output[position + 3] = symbols[Int(value & 63)]
                    index += 3
                    position += 4
                }
                if rest > 0 {
                    let value = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
                    output[position] = symbols[Int(value >> 18 & 63)]
                    output[position + 1] = symbols[Int(value >> 12 & 63)]
                    position += 2
                    if rest == 2 {
                        output[position] = symbols[Int(value >> 6 & 63)]
                        position += 1
                    }
                    if padding {
                        while position < length {
                            output[position] = UInt8(ascii: "=")
                            position += 1
                        }
                    }
                }
                initialized = length
            }
        }
    }

    // MARK: - Decoding

    /// Decodes base64 text as clients send it, or returns `nil` when it is not base64. ASCII whitespace is
    /// skipped (some clients wrap lines) and the trailing `=` padding may be missing; anything else outside the
    /// alphabet, data after padding and lengths no encoder produces are errors.
    ///
    /// - Parameters:
    ///   - text: The text's bytes.
    ///   - alphabet: The symbols expected; ``Alphabet/standard`` by default.
    /// - Returns: The bytes, or `nil`.
    @inlinable
    package static func decode(_ text: some Collection<UInt8>, alphabet: Alphabet = .standard) -> [UInt8]? {
        if let bytes = text.withContiguousStorageIfAvailable({ decodeLenient(buffer: $0, alphabet: alphabet) }) {
            return bytes
        }
        return Array(text).withUnsafeBufferPointer { decodeLenient(buffer: $0, alphabet: alphabet) }
    }

    /// Decodes base64 without padding, accepting nothing but the alphabet's symbols: no `=`, no whitespace, no
    /// length that leaves a lone character.
    ///
    /// - Parameters:
    ///   - text: The text's bytes, e.g. one part of a compact JWS or the salt of a stored hash.
    ///   - alphabet: The symbols expected.
    ///   - requireZeroTrailingBits: Whether the two or four unused low bits of the last character must be zero
    ///     (the default), so that every byte string has exactly one accepted encoding. bcrypt's reference
    ///     decoder ignores them.
    /// - Returns: The bytes, or `nil`.
    @inlinable
    package static func decodeUnpadded(
        _ text: some Collection<UInt8>, alphabet: Alphabet, requireZeroTrailingBits: Bool = true
    ) -> [UInt8]? {
        if let bytes = text.withContiguousStorageIfAvailable({
            decodeUnpadded(buffer: $0, alphabet: alphabet, requireZeroTrailingBits: requireZeroTrailingBits)
        }) {
            return bytes
        }
        return Array(text).withUnsafeBufferPointer {
            decodeUnpadded(buffer: $0, alphabet: alphabet, requireZeroTrailingBits: requireZeroTrailingBits)
        }
    }

    /// The lenient decoder's loop over contiguous bytes.
    @usableFromInline
    static func decodeLenient(buffer text: UnsafeBufferPointer<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var sextets = 0
        var padding = 0
        let complete = alphabet.values.withUnsafeBufferPointer { values -> Bool in
            for byte in text {
                let value = values[Int(byte)]
                if value != Alphabet.invalid {
                    // Data after padding is not base64.
                    guard padding == 0 else { return false }
                    accumulator = accumulator << 6 | UInt32(value)
                    sextets += 1
                    if sextets == 4 {
                        output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                        output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                        output.append(UInt8(truncatingIfNeeded: accumulator))
                        accumulator = 0
                        sextets = 0
                    }
                    continue
                }
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D:
                    continue
                case UInt8(ascii: "="):
                    padding += 1
                    guard padding <= 2 else { return false }
                default:
                    return false
                }
            }
            return true
        }
        guard complete else { return nil }
        switch sextets {
        case 0:
            guard padding == 0 else { return nil }
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            return nil
        }
        return output
    }

    /// The strict decoder's loop over contiguous bytes.
    @usableFromInline
    static func decodeUnpadded(
        buffer text: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, requireZeroTrailingBits: Bool
    ) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        let complete = alphabet.values.withUnsafeBufferPointer { values -> Bool in
            for byte in text {
                let value = values[Int(byte)]
                guard value != Alphabet.invalid else { return false }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
            return true
        }
        guard complete, !requireZeroTrailingBits || accumulator == 0 else { return nil }
        return output
    }
}
