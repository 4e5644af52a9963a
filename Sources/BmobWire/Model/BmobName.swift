/// Bmob's rules for class and field names. Every identifier is checked against them before it reaches SQL.
package enum BmobName {
    /// Classes Bmob itself defines; their names start with an underscore.
    package static let systemClasses: Set<String> = ["_User", "_Role", "_Installation", "_Session", "_File"]

    /// Fields every object has, which a client cannot set directly.
    package static let systemFields: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL"]

    /// Longest class or field name accepted.
    package static let maximumLength = 128

    /// A letter followed by letters, digits and underscores; or one of ``systemClasses``.
    package static func isValidClassName(_ name: String) -> Bool {
        // The byte scan first: most names pass it, and only names outside it (`_User`) need the set's hash.
        isIdentifier(name) || systemClasses.contains(name)
    }

    /// A letter followed by letters, digits and underscores (code 105 otherwise).
    package static func isValidFieldName(_ name: String) -> Bool {
        isIdentifier(name)
    }

    private static func isIdentifier(_ name: String) -> Bool {
        // Over contiguous bytes when the string has them (native strings do): stepping `String.UTF8View`
        // costs several times more per byte, and every write checks its class and field names.
        if let result = name.utf8.withContiguousStorageIfAvailable({ isIdentifier(bytes: $0) }) { return result }
        return isIdentifier(bytes: name.utf8)
    }

    private static func isIdentifier(bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, bytes.count <= maximumLength, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
