#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(COpenSSL)
import COpenSSL
#endif

/// AES-128 in CBC mode with PKCS#7 padding: the cipher of Bmob's native `/8/` protocol.
///
/// CommonCrypto on Apple platforms, OpenSSL's EVP interface elsewhere. Keys and IVs are exactly 16 bytes;
/// callers derive them (the native protocol pads or cuts text keys to 16 bytes).
package enum AES128CBC {
    /// Size of the key, the IV and a block.
    package static let blockSize = 16

    /// Encrypts `plaintext`; the result is a whole number of blocks, at least one.
    package static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8] {
        precondition(key.count == blockSize && iv.count == blockSize, "AES-128 needs a 16-byte key and IV")
        // Encrypting with a valid key and IV cannot fail; a failure means the library is broken.
        guard let output = crypt(encrypting: true, plaintext, key: key, iv: iv) else {
            fatalError("AES-128-CBC encryption failed")
        }
        return output
    }

    /// Decrypts `ciphertext`, or `nil` when it is not a whole number of blocks or its padding is wrong
    /// (a wrong key shows up this way too, most of the time).
    package static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8]? {
        precondition(key.count == blockSize && iv.count == blockSize, "AES-128 needs a 16-byte key and IV")
        guard !ciphertext.isEmpty, ciphertext.count % blockSize == 0 else { return nil }
        return crypt(encrypting: false, ciphertext, key: key, iv: iv)
    }

    #if canImport(CommonCrypto)
    private static func crypt(encrypting: Bool, _ input: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: input.count + blockSize)
        var moved = 0
        let status = CCCrypt(
            CCOperation(encrypting ? kCCEncrypt : kCCDecrypt), CCAlgorithm(kCCAlgorithmAES),
            CCOptions(kCCOptionPKCS7Padding), key, key.count, iv, input, input.count,
            &output, output.count, &moved)
        guard status == CCCryptorStatus(kCCSuccess) else { return nil }
        output.removeSubrange(moved...)
        return output
    }
    #else
    private static func crypt(encrypting: Bool, _ input: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8]? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let mode: Int32 = encrypting ? 1 : 0
        guard EVP_CipherInit_ex(context, EVP_aes_128_cbc(), nil, key, iv, mode) == 1 else { return nil }
        var output = [UInt8](repeating: 0, count: input.count + blockSize)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress,
                EVP_CipherUpdate(context, base, &written, input, Int32(input.count)) == 1
            else { return false }
            return EVP_CipherFinal_ex(context, base + Int(written), &finalWritten) == 1
        }
        guard ok else { return nil }
        output.removeSubrange(Int(written + finalWritten)...)
        return output
    }
    #endif
}
