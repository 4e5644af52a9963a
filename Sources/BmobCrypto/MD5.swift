#if canImport(CryptoKit)
import CryptoKit
import Foundation
#elseif canImport(COpenSSL)
import COpenSSL
#endif

/// MD5 (RFC 1321): CryptoKit's `Insecure.MD5` on Apple platforms, OpenSSL's EVP interface elsewhere.
///
/// MD5 is broken for collision resistance. It is here only where a protocol fixes it as a checksum, such as
/// the Pusher HTTP API's `body_md5` (whose request is then authenticated by HMAC-SHA256); never use it to
/// protect data. Apple platforms use CryptoKit rather than CommonCrypto because `CC_MD5` is deprecated there,
/// and a deprecation warning would fail strict builds.
package enum MD5 {
    /// Size of a digest in bytes.
    package static let digestCount = 16

    /// The 16-byte MD5 digest of `bytes`.
    ///
    /// - Parameter bytes: the bytes to hash.
    /// - Returns: the digest.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.withByteBuffer(digest)
    }

    /// The MD5 digest of `bytes` as 32 lowercase hexadecimal digits.
    ///
    /// - Parameter bytes: the bytes to hash.
    /// - Returns: the digest in lowercase hex.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(hash(bytes))
    }

    #if canImport(CryptoKit)
    private static func digest(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        Array(Insecure.MD5.hash(data: UnsafeRawBufferPointer(input)))
    }
    #else
    private static func digest(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: digestCount)
        var written: UInt32 = 0
        let status = EVP_Digest(input.baseAddress, input.count, &output, &written, EVP_md5(), nil)
        // Hashing cannot fail short of a broken library (or a FIPS-only provider, which refuses MD5).
        precondition(status == 1 && written == digestCount, "OpenSSL MD5 failed")
        return output
    }
    #endif
}
