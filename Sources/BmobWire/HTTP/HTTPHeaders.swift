/// Header fields in arrival order. Lookups match names case-insensitively (ASCII), as RFC 9110 requires.
package struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    package typealias Element = HTTPField

    /// The fields in arrival order.
    package private(set) var fields: [HTTPField]

    package init() {
        fields = []
    }

    package init(_ fields: [HTTPField]) {
        self.fields = fields
    }

    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    package var count: Int { fields.count }

    package func makeIterator() -> IndexingIterator<[HTTPField]> {
        fields.makeIterator()
    }

    /// The first value of the field `name`, or `nil`.
    package subscript(name: String) -> String? {
        // By index, comparing in place: `for field in fields` copied (retained) every field it passed.
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where Self.namesEqual(fields[index].name, name) {
                return fields[index].value
            }
            return nil
        }
    }

    /// Every value of the field `name`, in order.
    package func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    package func contains(_ name: String) -> Bool {
        fields.contains { Self.namesEqual($0.name, name) }
    }

    package mutating func add(name: String, value: String) {
        fields.append(HTTPField(name: name, value: value))
    }

    /// Removes every field called `name`, then adds one with `value`.
    package mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        fields.append(HTTPField(name: name, value: value))
    }

    package mutating func remove(name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// Whether the comma-separated values of `name` contain `token`, compared case-insensitively.
    package func containsToken(_ token: String, in name: String) -> Bool {
        for value in values(for: name) {
            for part in value.split(separator: ",") where Self.namesEqual(part.trimmingSpaces(), token) {
                return true
            }
        }
        return false
    }

    /// ASCII case-insensitive equality of two strings; the lengths and an exact match are checked before any
    /// byte loop (names mostly differ in length, and clients mostly send the canonical spelling).
    @inline(__always)
    package static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        return lhs == rhs || caseInsensitiveEqual(lhs, rhs)
    }

    /// ASCII case-insensitive equality without allocating.
    package static func namesEqual(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Compare contiguous bytes when both sides have them (native strings do); iterating two UTF8Views
        // in step is several times slower and this runs for every header lookup.
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where left[index] != right[index] {
                    guard lowercased(left[index]) == lowercased(right[index]) else { return false }
                }
                return true
            }
        }
        if let fast, let result = fast { return result }
        for (a, b) in zip(lhs.utf8, rhs.utf8) where a != b {
            guard lowercased(a) == lowercased(b) else { return false }
        }
        return true
    }

    private static func caseInsensitiveEqual(_ lhs: String, _ rhs: String) -> Bool {
        namesEqual(Substring(lhs), Substring(rhs))
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
