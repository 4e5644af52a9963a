/// Comparisons whose running time does not depend on the bytes compared, for secrets such as derived keys
/// and authentication codes.
package enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes.
    ///
    /// The time taken depends only on the two lengths: unequal lengths return at once, and equal lengths are
    /// always compared to the end, folding every difference into one accumulator instead of stopping early.
    package static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) {
            difference |= x ^ y
        }
        return difference == 0
    }
}
