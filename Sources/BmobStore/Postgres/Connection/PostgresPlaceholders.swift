/// Rewrites the `?` parameter markers the store's SQL uses (the query compiler writes one text for every engine)
/// into PostgreSQL's numbered `$1`, `$2`, ….
///
/// A `?` inside a quoted literal (`'…'`), a quoted identifier (`"…"`) or a comment stays as it is; so does `?`
/// followed by `|`, `&` or `?`, which never occur as markers. The store never uses PostgreSQL's `?` JSON
/// operators (it writes `jsonb_exists` and `->` instead), so every other `?` is a marker.
enum PostgresPlaceholders {
    /// `sql` with its markers numbered from 1, and how many there were.
    static func numbered(_ sql: String) -> (sql: String, count: Int) {
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count + 16)
        var count = 0
        var quote: UInt8?
        var inLineComment = false
        var blockCommentDepth = 0
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            defer { index += 1 }
            if inLineComment {
                if byte == UInt8(ascii: "\n") { inLineComment = false }
                output.append(byte)
                continue
            }
            if blockCommentDepth > 0 {
                output.append(byte)
                if byte == UInt8(ascii: "*"), next == UInt8(ascii: "/") {
                    blockCommentDepth -= 1
                    output.append(next)
                    index += 1
                } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                    blockCommentDepth += 1
                    output.append(next)
                    index += 1
                }
                continue
            }
            if let open = quote {
                // A doubled quote inside a literal is one quote character and keeps the literal open.
                if byte == open { quote = nil }
                output.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                quote = byte
                output.append(byte)
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                inLineComment = true
                output.append(byte)
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                blockCommentDepth = 1
                output.append(byte)
                output.append(next)
                index += 1
            case UInt8(ascii: "?"):
                count += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(count).utf8)
            default:
                output.append(byte)
            }
        }
        return (String(decoding: output, as: UTF8.self), count)
    }
}
