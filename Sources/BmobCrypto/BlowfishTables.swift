/// Blowfish's initial subkeys: the P-array (18 words) and four S-boxes (256 words each), which by the cipher's
/// definition are the first 1042 32-bit words of π's hexadecimal fraction.
///
/// Computed once per process from π by ``PiHexDigits`` (a few milliseconds), never tabulated in the source.
package struct BlowfishTables: Sendable {
    /// Words in the P-array.
    package static let pCount = 18
    /// Words in each S-box.
    package static let sBoxCount = 256
    /// All words: P-array, then S-boxes 0 to 3.
    package static let wordCount = pCount + 4 * sBoxCount

    /// The standard initial state, computed on first use.
    package static let initial = BlowfishTables(words: PiHexDigits.fractionWords(wordCount))

    /// The P-array followed by the four S-boxes, ``wordCount`` words.
    package let words: [UInt32]

    /// The P-array.
    package var p: ArraySlice<UInt32> { words[0..<Self.pCount] }

    /// S-box `index` (0…3).
    package func sBox(_ index: Int) -> ArraySlice<UInt32> {
        let start = Self.pCount + index * Self.sBoxCount
        return words[start..<(start + Self.sBoxCount)]
    }
}
