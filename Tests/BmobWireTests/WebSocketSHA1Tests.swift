import BmobWire
import Testing

/// ``WebSocketSHA1`` on FIPS 180 known answers and on messages around the 64-byte block boundary.
@Suite struct WebSocketSHA1Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func fipsVectors(message: String, digest: String) {
        #expect(Self.hex(WebSocketSHA1.hash(Array(message.utf8))) == digest)
    }

    /// Padding needs a second block from 56 bytes on; lengths either side of each boundary.
    @Test(arguments: [
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"), (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (57, "f08f24908d682555111be7ff6f004e78283d989a"), (63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
        (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"), (65, "11655326c708d70319be2610e8a57d9a5b959d3b"),
        (119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"), (120, "f34c1488385346a55709ba056ddd08280dd4c6d6"),
    ])
    func blockBoundaries(length: Int, digest: String) {
        #expect(Self.hex(WebSocketSHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: length))) == digest)
    }

    @Test func millionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Self.hex(WebSocketSHA1.hash(message)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }
}
