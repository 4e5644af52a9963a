import BmobWire
import Testing

@Suite("ASCIIDecimal")
struct ASCIIDecimalTests {
    @Test(
        "writes what String(value) writes",
        arguments: [0, 1, -1, 9, 10, -10, 99, 100, 1_700_000_000_123, -987_654_321, Int64.max, Int64.min, Int64.min + 1])
    func matchesDescription(value: Int64) {
        var bytes: [UInt8] = [UInt8(ascii: "x")]
        ASCIIDecimal.append(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + String(value))
    }

    @Test("Int goes through the same digits")
    func intOverload() {
        var bytes: [UInt8] = []
        ASCIIDecimal.append(Int.max, to: &bytes)
        ASCIIDecimal.append(-42 as Int, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == String(Int.max) + "-42")
    }
}
