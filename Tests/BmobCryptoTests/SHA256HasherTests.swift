import BmobCrypto
import Testing

/// ``SHA256Hasher`` against the FIPS 180-2 examples, and against ``SHA256`` for input cut into pieces.
@Suite struct SHA256HasherTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func fipsVectors(message: String, digest: String) {
        var hasher = SHA256Hasher()
        hasher.update(Array(message.utf8))
        #expect(hasher.finalize() == Hex.bytes(digest))
    }

    /// B.3, one million "a", fed one byte, then 1,000 bytes, at a time.
    @Test func millionAs() {
        let expected = Hex.bytes("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        var byBlocks = SHA256Hasher()
        for _ in 0..<1000 { byBlocks.update(thousand) }
        #expect(byBlocks.finalize() == expected)

        var byBytes = SHA256Hasher()
        let one: [UInt8] = [UInt8(ascii: "a")]
        for _ in 0..<1_000_000 { byBytes.update(one) }
        #expect(byBytes.finalize() == expected)
    }

    /// Random cuts of random input, through both overloads, give the one-shot digest.
    @Test func randomChunksMatchOneShot() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let count = Int.random(in: 0...5000, using: &random)
            let message = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            var hasher = SHA256Hasher()
            var offset = 0
            while offset < message.count {
                let end = min(message.count, offset + Int.random(in: 0...300, using: &random))
                if Bool.random(using: &random) {
                    hasher.update(message[offset..<end])
                } else {
                    message[offset..<end].withUnsafeBytes { hasher.update($0) }
                }
                offset = end
            }
            #expect(hasher.finalize() == SHA256.hash(message))
        }
    }

    /// Finalizing leaves the state alone, and copies hash independently of each other.
    @Test func finalizeAndCopiesAreIndependent() {
        var hasher = SHA256Hasher()
        hasher.update(Array("ab".utf8))
        #expect(hasher.finalize() == SHA256.hash(Array("ab".utf8)))
        #expect(hasher.finalize() == SHA256.hash(Array("ab".utf8)))
        var copy = hasher
        hasher.update(Array("c".utf8))
        copy.update(Array("x".utf8))
        #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
        #expect(copy.finalize() == SHA256.hash(Array("abx".utf8)))
    }

    /// Collections without contiguous storage, and empty updates, are accepted.
    @Test func anyCollectionOfBytes() {
        let message = Array("The quick brown fox".utf8)
        var hasher = SHA256Hasher()
        hasher.update(EmptyCollection<UInt8>())
        hasher.update(message.lazy.map { $0 })
        hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    /// Hashers cross tasks: each copy hashes on its own.
    @Test func concurrentCopies() async {
        var base = SHA256Hasher()
        base.update(Array("prefix-".utf8))
        let shared = base
        let digests = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for index in 0..<8 {
                group.addTask {
                    var hasher = shared
                    hasher.update(Array("\(index)".utf8))
                    return (index, hasher.finalize())
                }
            }
            var result: [Int: [UInt8]] = [:]
            for await (index, digest) in group { result[index] = digest }
            return result
        }
        for index in 0..<8 {
            #expect(digests[index] == SHA256.hash(Array("prefix-\(index)".utf8)))
        }
    }
}
