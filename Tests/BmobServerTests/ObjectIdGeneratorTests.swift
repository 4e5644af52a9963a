import Testing

@testable import BmobServer

@Suite("Object ids")
struct ObjectIdGeneratorTests {
    private static func isBmobId(_ id: String) -> Bool {
        id.utf8.count == 10 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    @Test("format writes 10 lowercase hex digits, zero-padded")
    func format() {
        #expect(ObjectIdGenerator.format(0) == "0000000000")
        #expect(ObjectIdGenerator.format(0xAB) == "00000000ab")
        #expect(ObjectIdGenerator.format(ObjectIdGenerator.idSpace - 1) == "ffffffffff")
    }

    @Test("ascending ids increase by 1…4096 and look like Bmob's")
    func ascending() throws {
        var state = ObjectIdGenerator.AscendingState()
        var previous = try #require(UInt64(state.next(), radix: 16))
        for _ in 0..<10_000 {
            let id = state.next()
            #expect(Self.isBmobId(id))
            let value = try #require(UInt64(id, radix: 16))
            #expect(value > previous && value - previous <= 4096)
            previous = value
        }
    }

    @Test("ascending ids wrap to the bottom of the range")
    func wraps() throws {
        var state = ObjectIdGenerator.AscendingState(startingAt: ObjectIdGenerator.idSpace - 1)
        let value = try #require(UInt64(state.next(), radix: 16))
        #expect(value < 4096)
    }

    @Test("the shared generators make distinct well-formed ids")
    func shared() {
        for generator in [ObjectIdGenerator.ascending, .random] {
            let ids = (0..<1000).map { _ in generator.make() }
            #expect(Set(ids).count == ids.count)
            #expect(ids.allSatisfy(Self.isBmobId))
        }
    }
}
