import BmobWire

/// A set of scalars for a character class, a shorthand such as `\d`, or a case-insensitive literal.
///
/// Ranges are kept sorted, disjoint and non-adjacent, so membership is a binary search. Negation is kept as a
/// flag rather than applied to the ranges, because under the `i` option `[^a]` must reject `A` as well.
struct RegexScalarSet: Sendable, Equatable {
    /// Sorted, disjoint, non-adjacent ranges of scalar values.
    let ranges: [ClosedRange<UInt32>]
    /// Whether the set matches the scalars outside ``ranges``.
    let negated: Bool
    /// Whether a scalar also matches when its simple lower- or uppercase form is in ``ranges``.
    let caseInsensitive: Bool

    /// Creates a set from ranges in any order, overlapping or not.
    init(ranges: [ClosedRange<UInt32>], negated: Bool = false, caseInsensitive: Bool = false) {
        self.ranges = Self.normalized(ranges)
        self.negated = negated
        self.caseInsensitive = caseInsensitive
    }

    /// Whether the set matches `scalar`, whose simple case forms are `variants` (only read when
    /// ``caseInsensitive`` is set).
    func contains(_ scalar: Unicode.Scalar, variants: (lower: Unicode.Scalar, upper: Unicode.Scalar)) -> Bool {
        var found = rangesContain(scalar.value)
        if !found && caseInsensitive {
            found = rangesContain(variants.lower.value) || rangesContain(variants.upper.value)
        }
        return found != negated
    }

    /// Binary search of ``ranges``.
    func rangesContain(_ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if value < range.lowerBound {
                high = middle
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Sorts and merges overlapping or adjacent ranges.
    static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The scalar values (up to U+10FFFF) outside `ranges`.
    static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in normalized(ranges) {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return result
    }
}
