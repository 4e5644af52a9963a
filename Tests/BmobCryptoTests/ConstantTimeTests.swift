import BmobCrypto
import Testing

@Suite struct ConstantTimeTests {
    @Test func equalBytes() {
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equals(Array("token".utf8), "token".utf8))
        #expect(ConstantTime.equals([UInt8](repeating: 0xFF, count: 1000), [UInt8](repeating: 0xFF, count: 1000)))
    }

    /// A difference anywhere counts, including in the first and last byte and in a single bit.
    @Test func differentBytes() {
        let base = (0..<64).map { UInt8($0) }
        for position in base.indices {
            for bit in 0..<8 {
                var other = base
                other[position] ^= 1 << bit
                #expect(!ConstantTime.equals(base, other))
            }
        }
    }

    @Test func differentLengths() {
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 3]))
        #expect(!ConstantTime.equals([UInt8](), [0]))
        #expect(!ConstantTime.equals([0], [UInt8]()))
    }

    /// Collections of any kind compare by their bytes, not their type or indices.
    @Test func mixedCollections() {
        let bytes: [UInt8] = [9, 8, 7, 6]
        #expect(ConstantTime.equals(bytes, bytes.lazy.map { $0 }))
        #expect(ConstantTime.equals(bytes.dropFirst(), [8, 7, 6]))
        #expect(!ConstantTime.equals(bytes.dropFirst(), [9, 8, 7]))
    }
}
