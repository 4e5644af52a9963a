#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(COpenSSL)
import COpenSSL
#endif

/// HMAC-SHA256 (RFC 2104, FIPS 198-1): CommonCrypto on Apple platforms, OpenSSL elsewhere.
package enum HMACSHA256 {
    /// Size of an authentication code in bytes.
    package static let codeCount = 32

    /// The 32-byte HMAC-SHA256 of `message` under `key`; keys of any length are accepted (longer than 64
    /// bytes are hashed first, as the standard says).
    package static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        key.withByteBuffer { key in
            message.withByteBuffer { message in mac(key: key, message: message) }
        }
    }

    #if canImport(CommonCrypto)
    private static func mac(key: UnsafeBufferPointer<UInt8>, message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: codeCount)
        CCHmac(
            CCHmacAlgorithm(kCCHmacAlgSHA256), key.baseAddress, key.count, message.baseAddress, message.count,
            &output)
        return output
    }
    #else
    private static func mac(key: UnsafeBufferPointer<UInt8>, message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        precondition(key.count <= Int(Int32.max), "HMAC key too long for OpenSSL")
        var output = [UInt8](repeating: 0, count: codeCount)
        var written: UInt32 = 0
        let result = HMAC(
            EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, &output, &written)
        // With a valid digest and buffers, HMAC cannot fail short of a broken library.
        precondition(result != nil && written == codeCount, "OpenSSL HMAC-SHA256 failed")
        return output
    }
    #endif
}
