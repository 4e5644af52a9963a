import BmobCrypto
import BmobWire

extension JSONWebToken {
    /// Decodes base64url without padding (RFC 4648 §5, as RFC 7515 §2 uses it), or returns `nil` for a
    /// character outside `A–Z a–z 0–9 - _`, padding, a length that leaves a lone character, or non-zero
    /// leftover bits (so each byte string has exactly one accepted encoding).
    ///
    /// - Parameter utf8: The encoded text's UTF-8, e.g. one part of a compact JWS or a JWK's `n`.
    /// - Returns: The bytes, or `nil` when `utf8` is not canonical base64url.
    package static func decodeBase64URL(_ utf8: some Collection<UInt8>) -> [UInt8]? {
        Base64.decodeUnpadded(utf8, alphabet: .url)
    }
}
