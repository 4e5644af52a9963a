import BmobWire
import Foundation
import Testing

@testable import BmobCore

@Suite("Value coding")
struct BmobValueCodingTests {
    @Test("Swift values become Bmob JSON")
    func encodesValues() throws {
        #expect(try BmobValueCoding.encode(nil) == .null)
        #expect(try BmobValueCoding.encode(true) == .bool(true))
        #expect(try BmobValueCoding.encode(42) == .int(42))
        #expect(try BmobValueCoding.encode(UInt8(7)) == .int(7))
        #expect(try BmobValueCoding.encode(1.5) == .double(1.5))
        #expect(try BmobValueCoding.encode("文本") == .string("文本"))
        #expect(try BmobValueCoding.encode(["工作", "重要"]) == .array(["工作", "重要"]))
        #expect(try BmobValueCoding.encode(["viewCount": 100]) == .object(["viewCount": 100]))
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try BmobValueCoding.encode(date) == ["__type": "Date", "iso": "2023-11-14 22:13:20"])
    }

    @Test("unsupported values and non-finite numbers are rejected with a reason")
    func rejectsUnsupported() {
        struct Opaque {}
        #expect(throws: BmobError.self) { try BmobValueCoding.encode(Opaque()) }
        #expect(throws: BmobError.self) { try BmobValueCoding.encode(Double.nan) }
        #expect(throws: BmobError.self) { try BmobValueCoding.encode(UInt64.max) }
    }

    @Test("JSON becomes plain Swift values")
    func decodesPlainValues() {
        let value = BmobValueCoding.plainValue(["a": [1, 2.5, "x", true, nil]])
        let object = value as? [String: Any]
        let array = object?["a"] as? [Any]
        #expect(array?.count == 5)
        #expect(array?[0] as? Int == 1)
        #expect(array?[1] as? Double == 2.5)
        #expect(array?[2] as? String == "x")
        #expect(array?[3] as? Bool == true)
        #expect(array?[4] is NSNull)
    }
}
