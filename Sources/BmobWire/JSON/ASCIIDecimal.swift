/// Writes integers as ASCII decimal digits straight into a byte buffer.
///
/// `String(value).utf8` makes a string per number, and a create writes several numbers (the JSON of integer
/// fields and the journal document's two dates); digits written in place make none.
package enum ASCIIDecimal {
    /// Appends `value` in decimal, with a leading `-` when negative.
    package static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(magnitude: value.magnitude, to: &bytes)
    }

    /// Appends `value` in decimal.
    package static func append(_ value: Int, to bytes: inout [UInt8]) {
        append(Int64(value), to: &bytes)
    }

    private static func append(magnitude: UInt64, to bytes: inout [UInt8]) {
        // At most 20 digits; written backwards into a fixed buffer, then copied in order.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }
}
