/// The hexadecimal digits of π's fractional part, computed rather than tabulated: Blowfish's initial state is
/// these digits.
///
/// The sum is the Bailey–Borwein–Plouffe series with its four fractions over one denominator,
///
///     π = Σₖ 16⁻ᵏ · (120k² + 151k + 47) / (512k⁴ + 1024k³ + 712k² + 194k + 15),
///
/// added up in binary fixed point. Base 16 is a power of two, so 16⁻ᵏ is a shift of 4k bits and each term is
/// one long division of a 64-bit numerator by a 64-bit denominator; the bits of the total are the digits.
package enum PiHexDigits {
    /// The first `count` 32-bit words (eight hex digits each) of π's fractional part, most significant first:
    /// `0x243F6A88, 0x85A308D3, …`.
    package static func fractionWords(_ count: Int) -> [UInt32] {
        precondition(count >= 0)
        // Limb 0 holds the integer part (3); the last limb is a guard against the truncation of every term,
        // each of which loses less than one unit in that limb.
        let limbs = 1 + (count + 1) / 2 + 1
        let fractionBits = (limbs - 1) * 64
        var sum = [UInt64](repeating: 0, count: limbs)
        var term = [UInt64](repeating: 0, count: limbs)
        sum.withUnsafeMutableBufferPointer { sum in
            term.withUnsafeMutableBufferPointer { term in
                var k = 0
                while 4 * k < fractionBits {
                    addTerm(k, into: sum, scratch: term)
                    k += 1
                }
            }
        }
        var words: [UInt32] = []
        words.reserveCapacity(count)
        for index in 0..<count {
            let limb = sum[1 + index / 2]
            words.append(UInt32(truncatingIfNeeded: index % 2 == 0 ? limb >> 32 : limb))
        }
        return words
    }

    /// Adds term `k` of the series, shifted right by 4k bits, to `sum` (big-endian limbs, limb 0 the integer).
    private static func addTerm(
        _ k: Int, into sum: UnsafeMutableBufferPointer<UInt64>, scratch term: UnsafeMutableBufferPointer<UInt64>
    ) {
        let n = UInt64(k)
        let numerator = 120 * n * n + 151 * n + 47
        let denominator = (((512 * n + 1024) * n + 712) * n + 194) * n + 15
        let limbShift = 4 * k / 64
        let bitShift = UInt64(4 * k % 64)
        // Long division: `digit` runs through the base-2⁶⁴ digits of numerator / denominator (the first one is
        // its integer part); each output limb takes the low bits of one digit and the high bits of the next.
        var digit = numerator / denominator
        var remainder = numerator % denominator
        var previous: UInt64 = 0
        for index in limbShift..<term.count {
            term[index] = bitShift == 0 ? digit : (digit >> bitShift) | (previous << (64 - bitShift))
            previous = digit
            (digit, remainder) = denominator.dividingFullWidth((high: remainder, low: 0))
        }
        var carry = false
        var index = term.count - 1
        while index >= limbShift || carry {
            let addend = index >= limbShift ? term[index] : 0
            let (partial, overflow1) = sum[index].addingReportingOverflow(addend)
            let (total, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
            sum[index] = total
            carry = overflow1 || overflow2
            index -= 1
        }
    }
}
