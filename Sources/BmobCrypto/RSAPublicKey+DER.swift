extension RSAPublicKey {
    /// The key as a DER-encoded PKCS #1 `RSAPublicKey` (RFC 8017 appendix A.1.1):
    /// `SEQUENCE { INTEGER modulus, INTEGER publicExponent }`.
    ///
    /// The form both OpenSSL's `d2i_PublicKey` and Security's `SecKeyCreateWithData` take for an RSA public key.
    package var pkcs1DER: [UInt8] {
        Self.derElement(tag: 0x30, content: Self.derInteger(modulus) + Self.derInteger(exponent))
    }

    /// A DER INTEGER holding the unsigned big-endian `magnitude`: minimal, with a zero byte in front when the
    /// top bit is set so that it does not read as negative.
    static func derInteger(_ magnitude: [UInt8]) -> [UInt8] {
        var content = Array(magnitude.drop { $0 == 0 })
        if content.isEmpty || content[0] & 0x80 != 0 {
            content.insert(0, at: 0)
        }
        return derElement(tag: 0x02, content: content)
    }

    /// A DER element: `tag`, the definite length (short form below 128, else long form), then `content`.
    static func derElement(tag: UInt8, content: [UInt8]) -> [UInt8] {
        var element = [tag]
        if content.count < 0x80 {
            element.append(UInt8(content.count))
        } else {
            var lengthBytes: [UInt8] = []
            var length = content.count
            while length > 0 {
                lengthBytes.insert(UInt8(length & 0xFF), at: 0)
                length >>= 8
            }
            element.append(0x80 | UInt8(lengthBytes.count))
            element += lengthBytes
        }
        return element + content
    }
}
