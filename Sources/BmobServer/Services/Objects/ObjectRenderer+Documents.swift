package import BmobStore

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
        output.append(contentsOf: #""createdAt":"#.utf8)
        appendDate(document.createdAt, to: &output)
        output.append(contentsOf: #","objectId":"#.utf8)
        JSONValue.appendString(document.objectId, to: &output)
        output.append(contentsOf: #","updatedAt":"#.utf8)
        appendDate(document.updatedAt, to: &output)
        if let acl = document.acl {
            output.append(contentsOf: #","ACL":"#.utf8)
            output.append(contentsOf: acl)
        }
        output.append(UInt8(ascii: "}"))
    }
}
