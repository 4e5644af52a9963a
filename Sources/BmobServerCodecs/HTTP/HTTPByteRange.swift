import BmobWire

/// One range of bytes of a representation, from a request's `Range: bytes=…` header (RFC 9110 §14).
///
/// ```swift
/// switch HTTPByteRange.select(head.headers["Range"], size: fileSize) {
/// case .whole: // 200 with every byte
/// case .range(let range): // 206, `Content-Range: range.contentRange(size:)`, bytes range.first...range.last
/// case .unsatisfiable: // 416, `Content-Range: HTTPByteRange.unsatisfiedContentRange(size:)`
/// }
/// ```
///
/// A server may ignore a `Range` header (§14.2), and this one ignores what it does not serve: other units,
/// malformed values and several ranges in one header get the whole representation.
package struct HTTPByteRange: Sendable, Hashable {
    /// Offset of the first byte.
    package var first: Int
    /// Offset of the last byte (inclusive).
    package var last: Int

    /// A range of `first...last`; `first <= last`.
    package init(first: Int, last: Int) {
        precondition(first >= 0 && first <= last, "an empty or negative byte range")
        self.first = first
        self.last = last
    }

    /// The number of bytes in the range.
    package var count: Int { last - first + 1 }

    /// The `Content-Range` value of a 206 answer sending this range of `size` bytes: `bytes first-last/size`.
    package func contentRange(size: Int) -> String {
        "bytes \(first)-\(last)/\(size)"
    }

    /// The `Content-Range` value of a 416 answer for a representation of `size` bytes: `bytes */size`.
    package static func unsatisfiedContentRange(size: Int) -> String {
        "bytes */\(size)"
    }

    /// What a request asks of a representation.
    package enum Selection: Sendable, Hashable {
        /// The whole representation (no `Range` header, or one that is ignored).
        case whole
        /// One satisfiable range, already clipped to the representation.
        case range(HTTPByteRange)
        /// A well-formed range that no byte of the representation satisfies (416).
        case unsatisfiable
    }

    /// Resolves a `Range` header against a representation of `size` bytes.
    ///
    /// - Parameters:
    ///   - header: the `Range` field's value, or `nil` when the request has none.
    ///   - size: the representation's length in bytes.
    /// - Returns: what to send.
    package static func select(_ header: String?, size: Int) -> Selection {
        guard let header else { return .whole }
        var text = Substring(header).drop { $0 == " " || $0 == "\t" }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        guard let equals = text.firstIndex(of: "="),
            HTTPHeaders.namesEqual(text[..<equals], "bytes")
        else { return .whole }
        let spec = text[text.index(after: equals)...].trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            // `-n`: the last n bytes.
            guard let suffix = decimal(lastText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .range(HTTPByteRange(first: max(0, size - suffix), last: size - 1))
        }
        guard let first = decimal(firstText) else { return .whole }
        var last = size - 1
        if !lastText.isEmpty {
            guard let parsed = decimal(lastText), parsed >= first else { return .whole }
            last = min(parsed, size - 1)
        }
        guard first < size else { return .unsatisfiable }
        return .range(HTTPByteRange(first: first, last: last))
    }

    /// A number of 1 to 18 ASCII digits.
    private static func decimal(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18 else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
