import BmobWire

extension RegexScalarSet {
    /// `\d`: ASCII digits.
    static let digitRanges: [ClosedRange<UInt32>] = [0x30...0x39]
    /// `\w`: ASCII letters, digits and `_`.
    static let wordRanges: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    /// `\s`: space, tab, line feed, vertical tab, form feed and carriage return.
    static let spaceRanges: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]
    /// `\h`: horizontal white space, as PCRE lists it.
    static let horizontalSpaceRanges: [ClosedRange<UInt32>] = [
        0x09...0x09, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x180E...0x180E, 0x2000...0x200A,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000,
    ]
    /// `\v`: vertical white space, as PCRE lists it (line feed to carriage return, NEL, LS, PS).
    static let verticalSpaceRanges: [ClosedRange<UInt32>] = [0x0A...0x0D, 0x85...0x85, 0x2028...0x2029]

    /// The ranges of a shorthand escape letter (`d D w W s S h H v V`), or `nil` for any other letter.
    static func shorthandRanges(_ letter: Unicode.Scalar) -> [ClosedRange<UInt32>]? {
        switch letter {
        case "d": return digitRanges
        case "D": return complement(digitRanges)
        case "w": return wordRanges
        case "W": return complement(wordRanges)
        case "s": return spaceRanges
        case "S": return complement(spaceRanges)
        case "h": return horizontalSpaceRanges
        case "H": return complement(horizontalSpaceRanges)
        case "v": return verticalSpaceRanges
        case "V": return complement(verticalSpaceRanges)
        default: return nil
        }
    }

    /// The ranges of a POSIX class name as in `[[:alpha:]]` (ASCII only, as PCRE without UCP), or `nil` if the
    /// name is unknown.
    static func posixRanges(_ name: String) -> [ClosedRange<UInt32>]? {
        switch name {
        case "alpha": return [0x41...0x5A, 0x61...0x7A]
        case "digit": return digitRanges
        case "alnum": return [0x30...0x39, 0x41...0x5A, 0x61...0x7A]
        case "upper": return [0x41...0x5A]
        case "lower": return [0x61...0x7A]
        case "space": return spaceRanges
        case "blank": return [0x09...0x09, 0x20...0x20]
        case "punct": return [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E]
        case "xdigit": return [0x30...0x39, 0x41...0x46, 0x61...0x66]
        case "word": return wordRanges
        case "cntrl": return [0x00...0x1F, 0x7F...0x7F]
        case "graph": return [0x21...0x7E]
        case "print": return [0x20...0x7E]
        case "ascii": return [0x00...0x7F]
        default: return nil
        }
    }
}
