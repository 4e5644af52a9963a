import BmobWire
import Testing
import BmobServerCodecs

/// `Range: bytes=…` headers resolved against a representation's size (RFC 9110 §14).
@Suite struct HTTPByteRangeTests {
    typealias Range = HTTPByteRange

    @Test(arguments: [
        ("bytes=0-99", Range.Selection.range(Range(first: 0, last: 99))),
        ("bytes=100-", .range(Range(first: 100, last: 999))),
        ("bytes=-100", .range(Range(first: 900, last: 999))),
        ("bytes=-5000", .range(Range(first: 0, last: 999))),
        ("bytes=990-5000", .range(Range(first: 990, last: 999))),
        ("BYTES = 5-5 ", .whole),
        ("Bytes=5-5", .range(Range(first: 5, last: 5))),
        ("bytes= 5-6", .range(Range(first: 5, last: 6))),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=1000-2000", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=5-4", .whole),
        ("bytes=0-1,4-5", .whole),
        ("bytes=a-b", .whole),
        ("bytes=-", .whole),
        ("bytes=0x10-", .whole),
        ("bytes=1234567890123456789-", .whole),
        ("items=0-1", .whole),
        ("bytes", .whole),
    ])
    func rangesOfAThousandBytes(header: String, selection: Range.Selection) {
        #expect(Range.select(header, size: 1000) == selection)
    }

    @Test func noHeaderIsTheWholeRepresentation() {
        #expect(Range.select(nil, size: 10) == .whole)
    }

    @Test func anEmptyRepresentationSatisfiesNoRange() {
        #expect(Range.select("bytes=0-", size: 0) == .unsatisfiable)
        #expect(Range.select("bytes=-1", size: 0) == .unsatisfiable)
    }

    @Test func contentRangeValues() {
        let range = Range(first: 10, last: 19)
        #expect(range.count == 10)
        #expect(range.contentRange(size: 100) == "bytes 10-19/100")
        #expect(Range.unsatisfiedContentRange(size: 100) == "bytes */100")
    }
}
