/// Rules for the names a query may use: field paths in `where`, `keys` and `order`, aggregate result names in
/// `order` and `having`, and pointer paths in `include`.
package enum QueryPath {
    /// Most components in one dotted path.
    package static let maximumComponents = 16

    /// A dot-separated path of field names (`score`, `address.city`, `objectId`); components after the first
    /// may also be array indexes (`projectExperiences.0.name`).
    package static func isValidFieldPath(_ path: some StringProtocol) -> Bool {
        let components = String(path).split(separator: ".", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.count <= maximumComponents else { return false }
        for (index, component) in components.enumerated() {
            if BmobName.isValidFieldName(String(component)) { continue }
            if index > 0, isIndex(component) { continue }
            return false
        }
        return true
    }

    /// An aggregate result column such as `_sumScore`, `_avgScore` or `_count`: an underscore followed by
    /// letters, digits and underscores.
    package static func isValidAggregateName(_ name: some StringProtocol) -> Bool {
        let bytes = name.utf8
        guard bytes.count >= 2, bytes.count <= BmobName.maximumLength, bytes.first == UInt8(ascii: "_") else {
            return false
        }
        return bytes.dropFirst().allSatisfy(isWordByte)
    }

    /// What `order` and `having` accept: a field path or an aggregate result name.
    package static func isValidResultPath(_ path: some StringProtocol) -> Bool {
        isValidFieldPath(path) || isValidAggregateName(path)
    }

    /// An `include` entry: dotted pointer fields, each optionally followed by a bracketed, `|`-separated
    /// field list (`post[likes].author[username|email]`).
    package static func isValidInclude(_ include: some StringProtocol) -> Bool {
        var components = 0
        var rest = Substring(include)
        while true {
            components += 1
            guard components <= maximumComponents else { return false }
            let nameEnd = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
            guard BmobName.isValidFieldName(String(rest[..<nameEnd])) else { return false }
            rest = rest[nameEnd...]
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { return false }
                let fields = rest[rest.index(after: rest.startIndex)..<close]
                let names = fields.split(separator: "|", omittingEmptySubsequences: false)
                guard names.allSatisfy({ BmobName.isValidFieldName(String($0)) }) else { return false }
                rest = rest[rest.index(after: close)...]
            }
            if rest.isEmpty { return true }
            guard rest.first == "." else { return false }
            rest = rest.dropFirst()
        }
    }

    private static func isIndex(_ component: Substring) -> Bool {
        !component.isEmpty && component.utf8.count <= 9
            && component.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}
