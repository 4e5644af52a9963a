/// A small, bounded XML reader for S3's request and response bodies, which arrive from untrusted peers.
///
/// It reads elements, attributes, character data, CDATA sections, the five predefined entities and numeric
/// character references; it skips the XML declaration, processing instructions and comments. It refuses a
/// `<!DOCTYPE` (so no entity can be declared or expanded), input over ``maximumBytes``, nesting deeper than
/// ``maximumDepth`` and more than ``maximumElements`` elements, so its time and memory stay linear in a
/// bounded input. Namespaces are not resolved: names keep their prefix and ``S3XMLElement/localName`` drops it.
package struct S3XMLReader {
    /// Largest document accepted, in bytes. A completion listing 10,000 parts with checksums fits.
    package static let maximumBytes = 4 << 20
    /// Deepest nesting accepted; the root element is at depth 1.
    package static let maximumDepth = 16
    /// Most elements accepted in one document; a 10,000-part completion has about 30,000.
    package static let maximumElements = 65_536

    private let bytes: [UInt8]
    private var index = 0
    private var elementCount = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The root element of `document`.
    package static func parse(_ document: some Collection<UInt8>) throws(S3XMLError) -> S3XMLElement {
        guard document.count <= maximumBytes else {
            throw S3XMLError(.tooLarge, "document is larger than \(maximumBytes) bytes")
        }
        let bytes = Array(document)
        try validateCharacters(bytes)
        var reader = S3XMLReader(bytes: bytes)
        return try reader.document()
    }

    /// The root element of `document`.
    package static func parse(_ document: String) throws(S3XMLError) -> S3XMLElement {
        try parse(Array(document.utf8))
    }

    /// Whether XML 1.0 allows the code point `value` in a document (its `Char` production).
    package static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    // MARK: Structure

    private mutating func document() throws(S3XMLError) -> S3XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var root: S3XMLElement?
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: "<") else {
                throw malformed(root == nil ? "expected the root element" : "only markup may follow the root element")
            }
            if hasPrefix("<?") {
                try skip(past: "?>", opener: 2, what: "processing instruction")
            } else if hasPrefix("<!--") {
                try skip(past: "-->", opener: 4, what: "comment")
            } else if hasPrefix("<!DOCTYPE") {
                throw S3XMLError(.doctypeNotAllowed, "document type declarations are not accepted", offset: index)
            } else if hasPrefix("<!") {
                throw malformed("expected a comment")
            } else if root == nil {
                root = try element(depth: 1)
            } else {
                throw malformed("a document has one root element")
            }
        }
        guard let root else { throw malformed("document has no root element") }
        return root
    }

    /// The element starting at `<`, with everything up to its end tag.
    private mutating func element(depth: Int) throws(S3XMLError) -> S3XMLElement {
        let start = index
        guard depth <= Self.maximumDepth else {
            throw S3XMLError(.tooDeep, "elements nest deeper than \(Self.maximumDepth)", offset: start)
        }
        elementCount += 1
        guard elementCount <= Self.maximumElements else {
            throw S3XMLError(.tooManyElements, "document has more than \(Self.maximumElements) elements", offset: start)
        }
        index += 1
        let name = try self.name()
        var attributes: [String: String] = [:]
        while true {
            let spaced = skipWhitespace()
            guard index < bytes.count else { throw malformed("start tag is not closed", at: start) }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            if hasPrefix("/>") {
                index += 2
                return S3XMLElement(name, attributes: attributes)
            }
            guard spaced else { throw malformed("expected whitespace before an attribute") }
            let attributeStart = index
            let attributeName = try self.name()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw malformed("expected = after an attribute name") }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw malformed("expected a quoted attribute value")
            }
            let value = try attributeValue()
            guard attributes.updateValue(value, forKey: attributeName) == nil else {
                throw malformed("attribute appears twice", at: attributeStart)
            }
        }

        var text: [UInt8] = []
        var children: [S3XMLElement] = []
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                if hasPrefix("</") {
                    let endStart = index
                    index += 2
                    let endName = try self.name()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw malformed("expected > to end the end tag") }
                    index += 1
                    guard endName == name else {
                        throw S3XMLError(.mismatchedTag, "end tag does not match its start tag", offset: endStart)
                    }
                    return S3XMLElement(
                        name, attributes: attributes, text: String(decoding: text, as: UTF8.self), children: children)
                } else if hasPrefix("<!--") {
                    try skip(past: "-->", opener: 4, what: "comment")
                } else if hasPrefix("<![CDATA[") {
                    try cdata(into: &text)
                } else if hasPrefix("<!DOCTYPE") {
                    throw S3XMLError(.doctypeNotAllowed, "document type declarations are not accepted", offset: index)
                } else if hasPrefix("<!") {
                    throw malformed("expected a comment or CDATA section")
                } else if hasPrefix("<?") {
                    try skip(past: "?>", opener: 2, what: "processing instruction")
                } else {
                    children.append(try element(depth: depth + 1))
                }
            case UInt8(ascii: "&"):
                try reference(into: &text)
            case UInt8(ascii: "\r"):
                // XML reads CR LF and a lone CR as one line feed.
                text.append(UInt8(ascii: "\n"))
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
            case let byte:
                text.append(byte)
                index += 1
            }
        }
        throw malformed("element is not closed", at: start)
    }

    /// A quoted attribute value, entities resolved and whitespace characters made spaces (XML's attribute
    /// value normalisation for CDATA attributes).
    private mutating func attributeValue() throws(S3XMLError) -> String {
        let start = index
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            switch bytes[index] {
            case quote:
                index += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw malformed("attribute values may not contain <")
            case UInt8(ascii: "&"):
                try reference(into: &value)
            case UInt8(ascii: "\r"):
                value.append(UInt8(ascii: " "))
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"):
                value.append(UInt8(ascii: " "))
                index += 1
            case let byte:
                value.append(byte)
                index += 1
            }
        }
        throw malformed("attribute value is not closed", at: start)
    }

    /// The XML name at `index`. The document is valid UTF-8, and a name ends at an ASCII byte, so the
    /// bytes taken always decode.
    private mutating func name() throws(S3XMLError) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isStart =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
            let isLater =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isStart || (index > start && isLater) else { break }
            index += 1
        }
        guard index > start else { throw malformed("expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: Character data

    /// Appends the character an `&…;` reference at `index` stands for.
    private mutating func reference(into output: inout [UInt8]) throws(S3XMLError) {
        let start = index
        // The longest useful reference is `&#x0010FFFF;`; allow a few leading zeros more, no further.
        let limit = min(bytes.count, index + 16)
        var end = index + 1
        while end < limit, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < limit else { throw S3XMLError(.invalidEntity, "entity reference is not terminated", offset: start) }
        let body = bytes[(index + 1)..<end]
        index = end + 1
        switch String(decoding: body, as: UTF8.self) {
        case "amp": output.append(UInt8(ascii: "&"))
        case "lt": output.append(UInt8(ascii: "<"))
        case "gt": output.append(UInt8(ascii: ">"))
        case "quot": output.append(UInt8(ascii: "\""))
        case "apos": output.append(UInt8(ascii: "'"))
        default:
            guard body.first == UInt8(ascii: "#"), let value = Self.characterReference(body.dropFirst()),
                Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value)
            else { throw S3XMLError(.invalidEntity, "unknown entity or character reference", offset: start) }
            output.append(contentsOf: String(Character(scalar)).utf8)
        }
    }

    /// The code point of `123` or `x7B` (after `&#`), or `nil` if it is not one or exceeds U+10FFFF.
    private static func characterReference(_ digits: ArraySlice<UInt8>) -> UInt32? {
        var digits = digits
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + digit
            guard value <= 0x10FFFF else { return nil }
        }
        return value
    }

    /// Appends the content of the `<![CDATA[…]]>` section at `index`, line ends normalised.
    private mutating func cdata(into output: inout [UInt8]) throws(S3XMLError) {
        let start = index
        index += 9
        guard let end = find("]]>") else { throw malformed("CDATA section is not closed", at: start) }
        var position = index
        while position < end {
            if bytes[position] == UInt8(ascii: "\r") {
                output.append(UInt8(ascii: "\n"))
                if position + 1 < end, bytes[position + 1] == UInt8(ascii: "\n") { position += 1 }
            } else {
                output.append(bytes[position])
            }
            position += 1
        }
        index = end + 3
    }

    // MARK: Scanning

    /// Skips spaces, tabs and line ends; whether there were any.
    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count,
            bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") || bytes[index] == UInt8(ascii: "\n")
                || bytes[index] == UInt8(ascii: "\r")
        {
            index += 1
        }
        return index > start
    }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { $0.elementsEqual(bytes[index..<(index + count)]) }
    }

    /// The index of the next `terminator` at or after `index`.
    private func find(_ terminator: StaticString) -> Int? {
        terminator.withUTF8Buffer { pattern -> Int? in
            guard bytes.count >= pattern.count else { return nil }
            var position = index
            while position + pattern.count <= bytes.count {
                if bytes[position] == pattern[0], pattern.elementsEqual(bytes[position..<(position + pattern.count)]) {
                    return position
                }
                position += 1
            }
            return nil
        }
    }

    /// Moves past the next `terminator`, which closes the construct whose opener (`<?`, `<!--`) is at `index`.
    private mutating func skip(past terminator: StaticString, opener: Int, what: String) throws(S3XMLError) {
        let start = index
        index += opener
        guard let end = find(terminator) else { throw malformed("\(what) is not closed", at: start) }
        index = end + terminator.utf8CodeUnitCount
    }

    private func malformed(_ message: String, at offset: Int? = nil) -> S3XMLError {
        S3XMLError(.malformed, message, offset: offset ?? index)
    }

    /// Checks that `bytes` is UTF-8 holding only characters XML allows.
    private static func validateCharacters(_ bytes: [UInt8]) throws(S3XMLError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard isXMLCharacter(scalar.value) else {
                    throw S3XMLError(.invalidCharacter, "character not allowed in XML", offset: offset)
                }
                offset += UTF8.width(scalar)
            case .emptyInput:
                return
            case .error:
                throw S3XMLError(.invalidUTF8, "document is not valid UTF-8", offset: offset)
            }
        }
    }
}
