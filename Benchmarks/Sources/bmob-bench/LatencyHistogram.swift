/// Counts of durations in log-linear buckets: exact below 32, then 32 buckets per power of two, so a
/// reported percentile is at most about 3 % above the true value. Recording is an index computation and an
/// increment, with no allocation, since the receive loop records every delivery.
struct LatencyHistogram {
    /// Buckets per power of two, as a power of two itself.
    private static let subBucketBits = 5
    private static let subBuckets = 1 << subBucketBits
    /// Enough buckets for any `UInt64`.
    private static let bucketCount = (64 - subBucketBits + 1) * subBuckets

    private var counts = [UInt64](repeating: 0, count: LatencyHistogram.bucketCount)
    /// How many values were recorded.
    private(set) var count: UInt64 = 0
    /// The largest value recorded, exactly.
    private(set) var maximum: UInt64 = 0

    /// Adds one value.
    ///
    /// - Parameter value: a duration, in any unit; percentiles come back in the same unit.
    mutating func record(_ value: UInt64) {
        counts[Self.index(of: value)] += 1
        count += 1
        if value > maximum { maximum = value }
    }

    /// The value at or below which `fraction` of the recorded values lie: the upper edge of its bucket,
    /// never above ``maximum``; 0 when nothing was recorded.
    ///
    /// - Parameter fraction: between 0 and 1, e.g. 0.99.
    /// - Returns: the percentile, in the recorded unit.
    func percentile(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = max(1, UInt64((Double(count) * fraction).rounded(.up)))
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= rank { return min(maximum, Self.upperEdge(of: index)) }
        }
        return maximum
    }

    private static func index(of value: UInt64) -> Int {
        guard value >= UInt64(subBuckets) else { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        let shift = exponent - subBucketBits
        let mantissa = Int(value >> UInt64(shift))  // in subBuckets..<2*subBuckets
        return (shift + 1) * subBuckets + mantissa - subBuckets
    }

    private static func upperEdge(of index: Int) -> UInt64 {
        guard index >= subBuckets else { return UInt64(index) }
        let shift = index / subBuckets - 1
        let mantissa = UInt64(subBuckets + index % subBuckets)
        let next = (mantissa + 1) << UInt64(shift)
        return next == 0 ? .max : next - 1
    }
}
