/// One element of an S3 XML document: name, attributes, character data and child elements.
///
/// Character data directly inside the element is kept as one string (the pieces between children joined),
/// which is all S3's messages need: their elements hold either text or children.
package struct S3XMLElement: Sendable, Hashable {
    /// The name as written, with any namespace prefix (`s3:Part`).
    package var name: String
    /// The attributes, `xmlns` declarations included, with entities resolved.
    package var attributes: [String: String]
    /// The character data directly inside the element, entities resolved and line ends normalised to `\n`.
    package var text: String
    /// The child elements in document order.
    package var children: [S3XMLElement]

    /// An element from its parts.
    package init(_ name: String, attributes: [String: String] = [:], text: String = "", children: [S3XMLElement] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// The name without its namespace prefix: `Part` for `s3:Part`. Messages match on it, so a document is
    /// read the same whichever prefix (or default namespace) it uses.
    package var localName: Substring {
        if let colon = name.lastIndex(of: ":") { name[name.index(after: colon)...] } else { name[...] }
    }

    /// The first child called `localName`.
    package func child(_ localName: String) -> S3XMLElement? {
        children.first { $0.localName == localName }
    }

    /// Every child called `localName`, in order.
    package func children(_ localName: String) -> [S3XMLElement] {
        children.filter { $0.localName == localName }
    }

    // MARK: Reading message fields

    /// Throws ``S3XMLError/Code/unexpectedRoot`` unless this element is called `localName`.
    package func expect(_ localName: String) throws(S3XMLError) {
        guard self.localName == localName else { throw S3XMLError(.unexpectedRoot, "expected a \(localName) document") }
    }

    /// The text of the first child `localName`, exactly as written.
    package func requiredText(_ localName: String) throws(S3XMLError) -> String {
        guard let child = child(localName) else { throw S3XMLError(.missingElement, "\(name) lacks \(localName)") }
        return child.text
    }

    /// The text of the first child `localName`, exactly as written, or `nil` without one.
    package func optionalText(_ localName: String) -> String? {
        child(localName)?.text
    }

    /// The decimal integer in the first child `localName` (surrounding whitespace allowed), within `range`.
    package func requiredInteger(_ localName: String, in range: ClosedRange<Int64>) throws(S3XMLError) -> Int64 {
        try Self.integer(requiredText(localName), in: range, field: localName)
    }

    /// The decimal integer in the first child `localName`, within `range`, or `nil` when the child is missing
    /// or empty.
    package func optionalInteger(_ localName: String, in range: ClosedRange<Int64>) throws(S3XMLError) -> Int64? {
        guard let text = optionalText(localName), !Self.trimmed(text).isEmpty else { return nil }
        return try Self.integer(text, in: range, field: localName)
    }

    /// The boolean in the first child `localName` (`true`/`false` in any case, or `1`/`0`), or `nil` when the
    /// child is missing.
    package func optionalBool(_ localName: String) throws(S3XMLError) -> Bool? {
        guard let text = optionalText(localName) else { return nil }
        switch Self.trimmed(text).lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw S3XMLError(.invalidValue, "\(localName) must be true or false")
        }
    }

    /// A leaf element holding `text`.
    package static func leaf(_ name: String, _ text: String) -> S3XMLElement {
        S3XMLElement(name, text: text)
    }

    private static func integer(_ text: String, in range: ClosedRange<Int64>, field: String) throws(S3XMLError) -> Int64 {
        let digits = trimmed(text)
        // Eighteen digits always fit an Int64; S3's numbers (sizes, part numbers) need fewer.
        guard !digits.isEmpty, digits.utf8.count <= 18,
            digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int64(digits), range.contains(value)
        else { throw S3XMLError(.invalidValue, "\(field) must be an integer from \(range.lowerBound) to \(range.upperBound)") }
        return value
    }

    /// `text` without XML whitespace (space, tab, line feed, carriage return) at either end.
    private static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        var slice = text[...]
        while let first = slice.first, isSpace(first) { slice.removeFirst() }
        while let last = slice.last, isSpace(last) { slice.removeLast() }
        return slice
    }
}
