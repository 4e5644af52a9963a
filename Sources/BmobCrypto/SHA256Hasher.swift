#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(COpenSSL)
import COpenSSL
#endif

/// SHA-256 over input that arrives in pieces (a file part streamed to disk, a body read in chunks): the digest
/// equals ``SHA256/hash(_:)`` of the pieces joined. CommonCrypto on Apple platforms, OpenSSL's EVP elsewhere.
///
/// A value type: copies hash independently (copy-on-write of the running state), and ``finalize()`` leaves
/// the state untouched, so a digest of the input so far can be taken and hashing continued.
package struct SHA256Hasher: Sendable {
    #if canImport(CommonCrypto)
    private var context = CC_SHA256_CTX()
    #else
    private var context = Context()
    #endif

    /// A hasher that has seen no input.
    package init() {
        #if canImport(CommonCrypto)
        _ = CC_SHA256_Init(&context)
        #endif
    }

    /// Adds `bytes` to the input.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        if bytes.isEmpty { return }
        bytes.withByteBuffer { update(UnsafeRawBufferPointer($0)) }
    }

    /// Adds the bytes of `buffer` to the input.
    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        #if canImport(CommonCrypto)
        // CC_LONG is 32 bits wide: feed larger inputs in pieces.
        var offset = 0
        while offset < buffer.count {
            let count = min(buffer.count - offset, Int(UInt32.max))
            _ = CC_SHA256_Update(&context, base + offset, CC_LONG(count))
            offset += count
        }
        #else
        if !isKnownUniquelyReferenced(&context) {
            context = Context(copying: context)
        }
        context.update(base, buffer.count)
        #endif
    }

    /// The 32-byte digest of everything added so far. The hasher is unchanged and may keep taking input.
    package func finalize() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: SHA256.digestCount)
        #if canImport(CommonCrypto)
        var copy = context
        _ = CC_SHA256_Final(&output, &copy)
        #else
        Context(copying: context).finish(into: &output)
        #endif
        return output
    }

    #if !canImport(CommonCrypto)
    /// An OpenSSL digest context, owned by one box and freed with it.
    ///
    /// `@unchecked Sendable`: the context is only mutated through a box that is uniquely referenced (the
    /// hasher copies it first otherwise), and a shared box is only read (by `EVP_MD_CTX_copy_ex`), so no two
    /// threads ever write, or read and write, the same context.
    private final class Context: @unchecked Sendable {
        private let pointer: OpaquePointer

        init() {
            pointer = Context.allocate()
            // With a valid context and the built-in digest, initialisation cannot fail short of a broken library.
            precondition(EVP_DigestInit_ex(pointer, EVP_sha256(), nil) == 1, "OpenSSL SHA-256 init failed")
        }

        init(copying other: Context) {
            pointer = Context.allocate()
            precondition(EVP_MD_CTX_copy_ex(pointer, other.pointer) == 1, "OpenSSL SHA-256 copy failed")
        }

        deinit {
            EVP_MD_CTX_free(pointer)
        }

        func update(_ bytes: UnsafeRawPointer, _ count: Int) {
            precondition(EVP_DigestUpdate(pointer, bytes, count) == 1, "OpenSSL SHA-256 update failed")
        }

        /// Writes the digest; the context is spent afterwards, so only call this on a private copy.
        func finish(into output: inout [UInt8]) {
            var written: UInt32 = 0
            let status = EVP_DigestFinal_ex(pointer, &output, &written)
            precondition(status == 1 && written == SHA256.digestCount, "OpenSSL SHA-256 final failed")
        }

        private static func allocate() -> OpaquePointer {
            guard let pointer = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
            return pointer
        }
    }
    #endif
}
