import BmobWire

extension RegexScalarSet {
    /// Every scalar whose simple case forms differ from itself, with those forms, by value.
    ///
    /// Built once, on first use, by asking ``caseVariants(of:)`` about every scalar: the same function the
    /// matcher calls, so the table agrees with ``contains(_:variants:)`` whatever Unicode version the standard
    /// library carries. It holds a few thousand entries; the scan takes a fraction of a second, once per process.
    static let caseMappedScalars: [(scalar: UInt32, lower: UInt32, upper: UInt32)] = {
        var table: [(scalar: UInt32, lower: UInt32, upper: UInt32)] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let variants = caseVariants(of: scalar)
            if variants.lower != scalar || variants.upper != scalar {
                table.append((value, variants.lower.value, variants.upper.value))
            }
        }
        return table
    }()

    /// The scalars the set matches, as sorted, disjoint, non-adjacent ranges, with case-insensitivity and
    /// negation applied: exactly the scalars for which ``contains(_:variants:)`` answers `true`.
    ///
    /// Under `i` a scalar matches when it or one of its simple case forms is in ``ranges``, which is not the
    /// same as adding the case forms of the members (U+212A KELVIN SIGN lowercases to `k` but no letter maps to
    /// it), so the table of case-mapped scalars is searched in that direction. Negation comes last, so `[^a]`
    /// under `i` rejects `A` too.
    var matchedRanges: [ClosedRange<UInt32>] {
        var matched = ranges
        if caseInsensitive {
            for entry in Self.caseMappedScalars
            where rangesContain(entry.lower) || rangesContain(entry.upper) {
                matched.append(entry.scalar...entry.scalar)
            }
            matched = Self.normalized(matched)
        }
        return negated ? Self.complement(matched) : matched
    }
}
