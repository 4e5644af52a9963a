/// Cost parameters of a scrypt password hash: N = 2^``logN``, block size ``r``, parallelism ``p``.
///
/// Memory per derivation is about 128·r·N bytes and time grows with N·r·p.
package struct ScryptParameters: Sendable, Equatable {
    /// Base-2 logarithm of the CPU/memory cost N.
    package var logN: Int
    /// Block size; each block is 128·r bytes.
    package var r: Int
    /// Parallelism: how many independent mixes run (one after another here).
    package var p: Int

    /// Parameters N = 2^`logN`, `r`, `p`.
    package init(logN: Int, r: Int, p: Int) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// Bounds on the parameters ``PasswordHash`` makes or accepts from a stored string, so that a corrupt or
    /// hostile row cannot make a login run for minutes: ``logN`` 1…20, ``r`` 1…32, ``p`` 1…16, and the whole
    /// block table within ``Scrypt/maximumMemory``.
    package var isSupported: Bool {
        (1...20).contains(logN) && (1...32).contains(r) && (1...16).contains(p)
            && Scrypt.workingMemory(logN: logN, r: r, p: p) != nil
    }

    /// Whether any parameter is below the corresponding one of `other`, so a hash made with these should be
    /// redone with `other`.
    package func isWeaker(than other: ScryptParameters) -> Bool {
        logN < other.logN || r < other.r || p < other.p
    }
}
