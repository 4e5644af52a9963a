import BmobWire

extension RegexScalarSet {
    /// The simple lowercase and uppercase forms of `scalar`: itself where its full mapping is not exactly one
    /// scalar (so `ß` keeps `ß` as its uppercase form, and `İ` keeps `İ` as its lowercase one).
    ///
    /// This is simple case mapping from the Unicode data the standard library ships, not full case folding; it is
    /// exact for ASCII, Latin, Greek and Cyrillic letters, and leaves caseless scripts such as Chinese unchanged.
    static func caseVariants(of scalar: Unicode.Scalar) -> (lower: Unicode.Scalar, upper: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            switch value {
            case 0x41...0x5A: return (Unicode.Scalar(UInt8(value + 0x20)), scalar)
            case 0x61...0x7A: return (scalar, Unicode.Scalar(UInt8(value - 0x20)))
            default: return (scalar, scalar)
            }
        }
        let properties = scalar.properties
        var lower = scalar
        var upper = scalar
        if properties.changesWhenLowercased, let mapped = single(properties.lowercaseMapping) {
            lower = mapped
        }
        if properties.changesWhenUppercased, let mapped = single(properties.uppercaseMapping) {
            upper = mapped
        }
        return (lower, upper)
    }

    /// The only scalar of `text`, or `nil` if it has several.
    private static func single(_ text: String) -> Unicode.Scalar? {
        var iterator = text.unicodeScalars.makeIterator()
        guard let first = iterator.next(), iterator.next() == nil else { return nil }
        return first
    }
}
