#if canImport(CommonCrypto)
#elseif canImport(COpenSSL)
import COpenSSL
#endif

/// The scrypt key-derivation function (RFC 7914): OpenSSL's `EVP_PBE_scrypt` where OpenSSL is the crypto
/// library, ``PortableScrypt`` on Apple platforms (CommonCrypto has no scrypt).
package enum Scrypt {
    /// The largest table of blocks a derivation may build, 1 GiB (N·128·r bytes, and likewise p·128·r); beyond it
    /// ``derive(password:salt:logN:r:p:length:)`` returns `nil` instead of risking the process. RFC 7914's largest
    /// example, N = 2²⁰ with r = 8, fits.
    package static let maximumMemory = 1 << 30

    /// Derives `length` bytes from `password` and `salt` with cost N = 2^`logN`, block size `r` and
    /// parallelism `p`.
    ///
    /// - Returns: The derived key, or `nil` when the parameters are invalid (see
    ///   ``workingMemory(logN:r:p:)``), `length` is not in 1…``maximumMemory``, or memory runs out.
    package static func derive(password: [UInt8], salt: [UInt8], logN: Int, r: Int, p: Int, length: Int) -> [UInt8]? {
        guard let memory = workingMemory(logN: logN, r: r, p: p), length >= 1, length <= maximumMemory
        else { return nil }
        #if canImport(CommonCrypto)
        _ = memory
        return PortableScrypt.derive(password: password, salt: salt, logN: logN, r: r, p: p, length: length)
        #else
        var output = [UInt8](repeating: 0, count: length)
        let status = password.withByteBuffer { password in
            salt.withByteBuffer { salt in
                password.withMemoryRebound(to: CChar.self) { password in
                    EVP_PBE_scrypt(
                        password.baseAddress, password.count, salt.baseAddress, salt.count, UInt64(1) << logN,
                        UInt64(r), UInt64(p), UInt64(memory), &output, length)
                }
            }
        }
        guard status == 1 else {
            // Only an allocation failure gets here; leave OpenSSL's per-thread error queue empty.
            ERR_clear_error()
            return nil
        }
        return output
        #endif
    }

    /// The bytes of memory a derivation with these parameters needs, or `nil` when they are invalid: N = 2^`logN`
    /// must be at least 2 and below 2^(16·`r`), `r` and `p` at least 1 with `r`·`p` < 2³⁰, and both N·128·`r` and
    /// `p`·128·`r` at most ``maximumMemory``. The total is 128·`r`·(N + `p` + 2) bytes.
    package static func workingMemory(logN: Int, r: Int, p: Int) -> Int? {
        guard (1...32).contains(logN), r >= 1, p >= 1, r < 1 << 30, p < 1 << 30, r * p < 1 << 30 else { return nil }
        if 16 * r <= 32 && logN >= 16 * r { return nil }
        let (table, tableOverflow) = (128 * r).multipliedReportingOverflow(by: 1 << logN)
        guard !tableOverflow, table <= maximumMemory, 128 * r * p <= maximumMemory else { return nil }
        return 128 * r * ((1 << logN) + p + 2)
    }
}
