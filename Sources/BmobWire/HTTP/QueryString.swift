/// Decoding of URL query strings and path segments.
package enum QueryString {
    /// Splits `query` into name–value pairs with `application/x-www-form-urlencoded` rules: `&` separates
    /// pairs, `+` is a space, `%XX` is a byte. Malformed escapes are kept literally (some Bmob clients send
    /// unescaped values such as `p@ss%`), and invalid UTF-8 becomes U+FFFD.
    package static func parse(_ query: some StringProtocol) -> [(name: String, value: String)] {
        var query = String(query)
        return query.withUTF8 { bytes in
            var pairs: [(name: String, value: String)] = []
            var start = 0
            while start <= bytes.count {
                var end = start
                var equals: Int?
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                    if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if end > start {
                    if let equals {
                        pairs.append((
                            decode(UnsafeBufferPointer(rebasing: bytes[start..<equals]), plusIsSpace: true),
                            decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusIsSpace: true)
                        ))
                    } else {
                        pairs.append((decode(UnsafeBufferPointer(rebasing: bytes[start..<end]), plusIsSpace: true), ""))
                    }
                }
                start = end + 1
            }
            return pairs
        }
    }

    /// Percent-decodes `text`; with `plusIsSpace` a `+` becomes a space (form encoding, not paths).
    package static func decode(_ text: some StringProtocol, plusIsSpace: Bool) -> String {
        var text = String(text)
        return text.withUTF8 { decode($0, plusIsSpace: plusIsSpace) }
    }

    /// `utf8` percent-decoded (and `+` as a space when `plusIsSpace`).
    package static func decode(_ utf8: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: utf8, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hex(utf8[index + 1]), let low = hex(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else if plusIsSpace, byte == UInt8(ascii: "+") {
                bytes.append(0x20)
                index += 1
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
