/// The files a batch delete names, `{"<cdn>": [key or URL, …], …}` (REST `/2/cdnBatchDelete`, native
/// `/8/delcdnbatch`): every list's strings, in the order of the cdn names. The cdn names are Bmob's clients'
/// (`upyun`, …) and are not checked: a key alone names a file.
package enum FileBatchReferences {
    /// The references of `members`.
    ///
    /// - Parameters:
    ///   - path: what a member is called in messages before its name (`data.` on the native door).
    ///   - maximum: the most references decoded, when bounded here.
    /// - Throws: ``BmobRequestError`` 107 for a member that is not a list of strings, or past `maximum`.
    package static func decode(
        _ members: [String: JSONValue], path: String = "", maximum: Int? = nil
    ) throws(BmobRequestError) -> [String] {
        var references: [String] = []
        for name in members.keys.sorted() {
            guard case .array(let list)? = members[name] else {
                throw BmobRequestError(.invalidJSON, "\(path)\(name) must be a list of file keys or URLs")
            }
            for item in list {
                guard case .string(let reference) = item else {
                    throw BmobRequestError(.invalidJSON, "\(path)\(name) must be a list of file keys or URLs")
                }
                references.append(reference)
                if let maximum, references.count > maximum {
                    throw BmobRequestError(.invalidJSON, "at most \(maximum) files per batch")
                }
            }
        }
        return references
    }
}
