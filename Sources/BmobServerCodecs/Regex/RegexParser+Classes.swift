import BmobWire

extension RegexParser {
    /// A bracketed class after its `[`: items, ranges, shorthand escapes and POSIX classes, optionally negated.
    mutating func parseClass(openedAt open: Int) throws(BoundedRegexError) -> RegexNode {
        var negated = false
        if scalar(at: index) == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard let next = scalar(at: index) else { throw error("missing closing bracket", at: open) }
            let itemStart = index
            if next == "]" && !first {
                index += 1
                break
            }
            first = false
            if let posix = try parsePosixClass() {
                if scalar(at: index) == "-", let after = scalar(at: index + 1), after != "]" {
                    throw error("invalid range in character class", at: itemStart)
                }
                ranges += posix
                continue
            }
            let low = try parseClassItem()
            let isRange = scalar(at: index) == "-" && scalar(at: index + 1) != nil && scalar(at: index + 1) != "]"
            guard isRange else {
                if let single = low.scalar {
                    ranges.append(single.value...single.value)
                    if flags.caseInsensitive {
                        let variants = RegexScalarSet.caseVariants(of: single)
                        ranges.append(variants.lower.value...variants.lower.value)
                        ranges.append(variants.upper.value...variants.upper.value)
                    }
                } else {
                    ranges += low.ranges
                }
                continue
            }
            index += 1
            guard let lowScalar = low.scalar, try parsePosixClass() == nil,
                let highScalar = try parseClassItem().scalar
            else {
                throw error("invalid range in character class", at: itemStart)
            }
            guard lowScalar.value <= highScalar.value else {
                throw error("character class range out of order", at: itemStart)
            }
            ranges.append(lowScalar.value...highScalar.value)
        }
        return addSet(RegexScalarSet(ranges: ranges, negated: negated, caseInsensitive: flags.caseInsensitive))
    }

    /// One class item: a scalar (possibly escaped) or the ranges of a shorthand escape such as `\d`.
    private mutating func parseClassItem() throws(BoundedRegexError)
        -> (scalar: Unicode.Scalar?, ranges: [ClosedRange<UInt32>])
    {
        let start = index
        let next = scalars[index]
        index += 1
        guard next == "\\" else { return (next, []) }
        guard let letter = scalar(at: index) else { throw error("pattern ends with a backslash", at: start) }
        index += 1
        if let ranges = RegexScalarSet.shorthandRanges(letter) {
            return (nil, ranges)
        }
        switch letter {
        case "b":
            return ("\u{08}", [])
        case "1"..."9", "g", "k":
            throw error("backreferences and octal escapes other than \\0 are not supported", at: start)
        case "Q", "E":
            throw error("\\Q and \\E are not supported in a character class", at: start)
        case "B", "A", "z", "Z", "G", "K", "N", "R", "X", "p", "P", "C":
            throw error("\\\(letter) is not supported in a character class", at: start)
        default:
            guard let scalar = try parseScalarEscape(letter, at: start) else {
                throw error("unknown escape \\\(letter)", at: start)
            }
            return (scalar, [])
        }
    }

    /// A POSIX class such as `[:alpha:]` or `[:^digit:]` at ``index``, consumed; `nil` (nothing consumed) if
    /// the text there is not one, in which case its `[` is an ordinary item.
    ///
    /// - Throws: ``BoundedRegexError`` for a well-formed but unknown name such as `[:foo:]`.
    private mutating func parsePosixClass() throws(BoundedRegexError) -> [ClosedRange<UInt32>]? {
        guard scalar(at: index) == "[", scalar(at: index + 1) == ":" else { return nil }
        var cursor = index + 2
        let negated = scalar(at: cursor) == "^"
        if negated { cursor += 1 }
        var name = ""
        while let letter = scalar(at: cursor), ("a"..."z").contains(letter) {
            name.unicodeScalars.append(letter)
            cursor += 1
        }
        guard scalar(at: cursor) == ":", scalar(at: cursor + 1) == "]" else { return nil }
        guard let ranges = RegexScalarSet.posixRanges(name) else {
            throw error("unknown POSIX class name", at: index)
        }
        index = cursor + 2
        return negated ? RegexScalarSet.complement(ranges) : ranges
    }
}
