/// Writes bytes into memory the caller sized: log lines are formatted this way, with one bounds check per line
/// (the caller's) instead of one per byte, which growing an array byte by byte would cost.
struct ByteCursor {
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    /// A cursor at the start of `buffer`, which must hold everything that will be written.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
    }

    /// What was written.
    var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base, count: count)
    }

    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    mutating func put(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// The UTF-8 bytes of `text`.
    mutating func put(_ text: String) {
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            (base + count).update(from: bytes.baseAddress!, count: bytes.count)
            return bytes.count
        }
        if let copied {
            count += copied
        } else {
            for byte in text.utf8 { put(byte) }
        }
    }

    /// `value` in decimal (at most 20 digits).
    mutating func putDecimal(_ value: UInt64) {
        putDecimal(value, width: 1)
    }

    /// `value` in decimal with at least `width` digits, zeros in front.
    mutating func putDecimal(_ value: UInt64, width: Int) {
        var digits = 1
        var scan = value
        while scan >= 10 {
            scan /= 10
            digits += 1
        }
        digits = max(digits, width)
        var remaining = value
        for index in stride(from: digits - 1, through: 0, by: -1) {
            base[count + index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        count += digits
    }
}
