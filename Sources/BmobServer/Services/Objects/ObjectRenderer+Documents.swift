package import BmobStore
import BmobWire

extension ObjectRenderer {
    /// Appends a stored document as a client sees it, without parsing its fields: the stored JSON text of the
    /// fields, then `createdAt`, `objectId`, `updatedAt` and `ACL` when set. Only for a renderer in UTC, with
    /// every field kept and no user to redact (finds and gets without `keys` or `include`).
    package func appendJSON(_ document: StoredDocument, to output: inout [UInt8]) {
        let data = document.data
        if data.count >= 2, data.first == UInt8(ascii: "{"), data.last == UInt8(ascii: "}") {
            output.append(contentsOf: data[..<(data.count - 1)])
            if data.count > 2 { output.append(UInt8(ascii: ",")) }
        } else {
            output.append(UInt8(ascii: "{"))
        }
        Self.append(#""createdAt":"#, to: &output)
        let createdAt = output.count
        appendDate(document.createdAt, to: &output)
        let createdAtEnd = output.count
        Self.append(#","objectId":"#, to: &output)
        JSONValue.appendString(document.objectId, to: &output)
        Self.append(#","updatedAt":"#, to: &output)
        if Self.sameSecond(document.updatedAt, document.createdAt) {
            // Most objects were never updated: the date text is the one just written (copied byte by byte, as a
            // slice of `output` would make the append copy the whole array).
            output.reserveCapacity(output.count + createdAtEnd - createdAt)
            for index in createdAt..<createdAtEnd { output.append(output[index]) }
        } else {
            appendDate(document.updatedAt, to: &output)
        }
        if let acl = document.acl {
            Self.append(#","ACL":"#, to: &output)
            output.append(contentsOf: acl)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Whether stored JSON text nests no deeper than ``JSONParser/maximumDepth`` allows: what the server wrote
    /// always does (it parsed it from a request first), so only a damaged or hand-edited row fails. One pass over
    /// the bytes, skipping strings.
    package static func nestingIsReadable(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > JSONParser.maximumDepth { return false }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return true
    }

    /// Whether two times fall in the same second (and so render the same date).
    private static func sameSecond(_ a: Int64, _ b: Int64) -> Bool {
        a == b || (a / 1000 == b / 1000 && a >= 0 && b >= 0)
    }

    /// Appends a literal's bytes in one copy (appending a `String`'s `utf8` goes byte by byte).
    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }
}
