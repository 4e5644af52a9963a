#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(COpenSSL)
import COpenSSL
#endif

/// SHA-256 (FIPS 180-4): CommonCrypto on Apple platforms, OpenSSL's EVP interface elsewhere.
package enum SHA256 {
    /// Size of a digest in bytes.
    package static let digestCount = 32

    /// The 32-byte SHA-256 digest of `bytes`.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.withByteBuffer(digest)
    }

    /// The SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(hash(bytes))
    }

    #if canImport(CommonCrypto)
    private static func digest(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var context = CC_SHA256_CTX()
        _ = CC_SHA256_Init(&context)
        // CC_LONG is 32 bits wide: feed larger inputs in pieces.
        var offset = 0
        repeat {
            let count = min(input.count - offset, Int(UInt32.max))
            _ = CC_SHA256_Update(&context, input.baseAddress! + offset, CC_LONG(count))
            offset += count
        } while offset < input.count
        var output = [UInt8](repeating: 0, count: digestCount)
        _ = CC_SHA256_Final(&output, &context)
        return output
    }
    #else
    private static func digest(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: digestCount)
        var written: UInt32 = 0
        let status = EVP_Digest(input.baseAddress, input.count, &output, &written, EVP_sha256(), nil)
        // Hashing cannot fail short of a broken library.
        precondition(status == 1 && written == digestCount, "OpenSSL SHA-256 failed")
        return output
    }
    #endif
}
