import BmobWire

/// The header lines of a connection's previous request and the fields parsed from them.
///
/// A client sends the same fields in the same order on every request of a connection (its host, keys and
/// content type; only a few values such as `Content-Length` change). A line whose bytes equal the previous
/// request's line at the same position is the same field, so the decoder takes that field whole: comparing
/// bytes instead of checking them and copying them into new strings, which was about half of parsing a head.
/// The lines are copied into a buffer kept between requests, so recording them allocates only when a head
/// is larger than any before it.
struct HeadTemplate {
    /// The field lines with their line endings, back to back, up to the empty line that ends the head.
    private(set) var lines: [UInt8] = []
    /// The fields parsed from ``lines``, in order.
    private(set) var fields: [HTTPField] = []

    /// Keeps a parsed head's field lines and fields for the next request.
    mutating func record(lines newLines: ArraySlice<UInt8>, fields newFields: [HTTPField]) {
        lines.removeAll(keepingCapacity: true)
        lines.append(contentsOf: newLines)
        fields = newFields
    }

    /// Whether the template's line at `offset` is byte for byte `bytes[line]` (terminator included). Moves
    /// `offset` past the template's line either way, so later lines stay aligned with theirs.
    static func sameLine(
        _ template: UnsafeBufferPointer<UInt8>, at offset: inout Int, as bytes: UnsafeBufferPointer<UInt8>,
        _ line: Range<Int>
    ) -> Bool {
        // `line` holds one line feed, its last byte; equal bytes therefore mean a template line of the same
        // length, and only a mismatch needs the template's next line start searched for.
        if offset + line.count <= template.count,
            ByteComparison.equal(
                UnsafeBufferPointer(rebasing: template[offset..<offset + line.count]), UnsafeBufferPointer(rebasing: bytes[line]))
        {
            offset += line.count
            return true
        }
        while offset < template.count, template[offset] != 0x0A { offset += 1 }
        offset = min(offset + 1, template.count)
        return false
    }
}
