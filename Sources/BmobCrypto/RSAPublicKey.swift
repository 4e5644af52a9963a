#if canImport(Security)
import Foundation
import Security
#elseif canImport(COpenSSL)
import COpenSSL
#endif

/// An RSA public key that verifies RSASSA-PKCS1-v1_5 signatures over SHA-256 (RS256 in JOSE terms, RFC 7518
/// §3.3): what OpenID Connect providers sign id tokens with.
///
/// Security on Apple platforms, OpenSSL 3 elsewhere; both are handed the key as a DER-encoded PKCS #1
/// `RSAPublicKey` that ``pkcs1DER`` builds. The key holds only its two numbers, so it is a plain `Sendable`
/// value; the platform key object is made for each verification, which costs microseconds against the
/// signature check itself.
///
/// ## Topics
///
/// ### Making a key
/// - ``init(modulus:exponent:)``
/// - ``minimumBitCount``
/// - ``maximumBitCount``
///
/// ### Verifying
/// - ``verifySHA256PKCS1(message:signature:)``
package struct RSAPublicKey: Sendable, Hashable {
    /// Smaller moduli are refused: 1024-bit RSA is within reach of a well-funded attacker.
    package static let minimumBitCount = 2048
    /// Larger moduli are refused: they only make verification slow, which an attacker could exploit.
    package static let maximumBitCount = 8192
    /// Larger public exponents are refused (OpenSSL caps them at 64 bits for big moduli; real keys use 65537).
    package static let maximumExponentByteCount = 8

    /// The modulus `n`, big-endian, without leading zero bytes.
    package let modulus: [UInt8]
    /// The public exponent `e`, big-endian, without leading zero bytes.
    package let exponent: [UInt8]

    /// A key from its modulus and public exponent as unsigned big-endian bytes, the form of a JSON Web Key's
    /// `n` and `e` once base64url-decoded. Leading zero bytes are ignored.
    ///
    /// Returns `nil` for a key that could not be a sound RSA key: a modulus outside
    /// ``minimumBitCount``...``maximumBitCount`` bits or even, an exponent that is even, below 3, longer than
    /// ``maximumExponentByteCount`` bytes, or not below the modulus.
    ///
    /// - Parameters:
    ///   - modulus: `n`, unsigned big-endian.
    ///   - exponent: `e`, unsigned big-endian.
    package init?(modulus: [UInt8], exponent: [UInt8]) {
        let n = Array(modulus.drop { $0 == 0 })
        let e = Array(exponent.drop { $0 == 0 })
        guard let first = n.first, let last = n.last, last & 1 == 1 else { return nil }
        let bitCount = n.count * 8 - first.leadingZeroBitCount
        guard Self.minimumBitCount...Self.maximumBitCount ~= bitCount else { return nil }
        guard let lastExponentByte = e.last, lastExponentByte & 1 == 1,
            e.count <= Self.maximumExponentByteCount, e.count > 1 || lastExponentByte >= 3
        else { return nil }
        // e < n holds already: e has at most 64 bits, n at least 2048.
        self.modulus = n
        self.exponent = e
    }

    /// Size of the modulus in bits (2048 for a 2048-bit key).
    package var bitCount: Int {
        modulus.count * 8 - modulus[0].leadingZeroBitCount
    }

    /// Size of a signature in bytes: the modulus's size, rounded up to whole bytes.
    package var signatureByteCount: Int { modulus.count }

    /// Whether `signature` is this key's RSASSA-PKCS1-v1_5 SHA-256 signature of `message` (RS256).
    ///
    /// A signature of the wrong length, one that does not verify, and any failure inside the platform's
    /// library all answer `false`; nothing here traps on bad input.
    ///
    /// - Parameters:
    ///   - message: The signed bytes (for a JWS, the ASCII of `header.payload`); hashed here.
    ///   - signature: The signature, exactly ``signatureByteCount`` bytes.
    /// - Returns: `true` only for a valid signature.
    package func verifySHA256PKCS1(message: some Collection<UInt8>, signature: [UInt8]) -> Bool {
        guard signature.count == signatureByteCount else { return false }
        return message.withByteBuffer { message in verify(message: message, signature: signature) }
    }

    #if canImport(Security)
    private func verify(message: UnsafeBufferPointer<UInt8>, signature: [UInt8]) -> Bool {
        let attributes: [CFString: Any] = [
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass: kSecAttrKeyClassPublic,
            kSecAttrKeySizeInBits: bitCount,
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateWithData(Data(pkcs1DER) as CFData, attributes as CFDictionary, &error) else {
            error?.release()
            return false
        }
        let valid = SecKeyVerifySignature(
            key, .rsaSignatureMessagePKCS1v15SHA256, Data(buffer: message) as CFData, Data(signature) as CFData,
            &error)
        error?.release()
        return valid
    }
    #else
    private func verify(message: UnsafeBufferPointer<UInt8>, signature: [UInt8]) -> Bool {
        // Errors land on OpenSSL's per-thread queue; leave it empty for the next caller on this thread.
        defer { ERR_clear_error() }
        guard let key = makeKey() else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        // RSA keys default to PKCS #1 v1.5 padding.
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message.baseAddress, message.count) == 1
    }

    /// An OpenSSL key decoded from ``pkcs1DER``; the caller frees it.
    private func makeKey() -> OpaquePointer? {
        let der = pkcs1DER
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let key = d2i_PublicKey(EVP_PKEY_RSA, nil, &cursor, buffer.count) else { return nil }
            // The decoder must have read the whole encoding, no more and no less.
            guard let cursor, let base = buffer.baseAddress, cursor - base == buffer.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
    }
    #endif
}
