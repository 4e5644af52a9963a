extension JSONValue {
    /// The length in bytes of ``jsonBytes``, counted without building the text, for size limits.
    ///
    /// Counting stops once it passes `limit`, so a huge value costs no more than a limit's worth of walking;
    /// the result is then some number above `limit`.
    package func encodedByteCount(stoppingAbove limit: Int = .max) -> Int {
        var total = 0
        count(into: &total, limit: limit)
        return total
    }

    private func count(into total: inout Int, limit: Int) {
        guard total <= limit else { return }
        switch self {
        case .null:
            total += 4
        case .bool(let value):
            total += value ? 4 : 5
        case .int(let value):
            total += Self.decimalLength(value)
        case .double(let value):
            if !value.isFinite {
                total += 4
            } else if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
                total += Self.decimalLength(Int64(value))
            } else {
                total += value.description.utf8.count
            }
        case .string(let value):
            total += Self.stringLength(value)
        case .array(let elements):
            total += 2
            for (offset, element) in elements.enumerated() {
                if offset > 0 { total += 1 }
                element.count(into: &total, limit: limit)
                if total > limit { return }
            }
        case .object(let members):
            total += 2
            for (offset, (key, value)) in members.enumerated() {
                total += Self.stringLength(key) + (offset > 0 ? 2 : 1)
                value.count(into: &total, limit: limit)
                if total > limit { return }
            }
        }
    }

    private static func decimalLength(_ value: Int64) -> Int {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        return length
    }

    /// Quotes plus bytes, with the escapes ``appendJSON(to:)`` writes: two bytes for `"`, `\`, newline, return
    /// and tab, six for other control characters.
    private static func stringLength(_ value: String) -> Int {
        var length = 2
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: length += 2
            case 0..<0x20: length += 6
            default: length += 1
            }
        }
        return length
    }
}
