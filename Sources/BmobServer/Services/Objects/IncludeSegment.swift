/// One step of an `include` path: a pointer field, optionally with the fields to keep of the object it
/// points to (`author[username|email]`).
package struct IncludeSegment: Sendable, Equatable {
    package var field: String
    package var keys: [String]?

    package init(field: String, keys: [String]? = nil) {
        self.field = field
        self.keys = keys
    }

    /// Splits `post[likes].author[username|email]` into its steps. Dots inside brackets do not split.
    package static func parse(_ path: String) -> [IncludeSegment] {
        var segments: [IncludeSegment] = []
        var rest = Substring(path)
        while !rest.isEmpty {
            let nameEnd = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
            var segment = IncludeSegment(field: String(rest[..<nameEnd]))
            rest = rest[nameEnd...]
            if rest.first == "[", let close = rest.firstIndex(of: "]") {
                segment.keys = rest[rest.index(after: rest.startIndex)..<close].split(separator: "|").map(String.init)
                rest = rest[rest.index(after: close)...]
            }
            segments.append(segment)
            if rest.first == "." { rest = rest.dropFirst() } else if !rest.isEmpty { break }
        }
        return segments
    }
}
