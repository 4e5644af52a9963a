import BmobCore
import BmobWire

/// `/8/cdn`'s answer: which way a file of the size asked about goes, and for a large one where it goes.
struct CDNGrant: Sendable, Equatable {
    /// Files of at least this many bytes go through the multipart uploader; smaller ones through `/8/files`.
    var uploadThreshold: Int64
    /// The storage provider's name.
    var cdn: String
    /// The multipart target, present when the size asked about is at or above ``uploadThreshold``.
    var upload: MultipartTarget?

    /// Reads the answer's `data`.
    ///
    /// - Throws: ``BmobError/jsonParsingFailed`` without a threshold, or with a malformed `upload` block.
    init(json: JSONValue) throws(BmobError) {
        guard let threshold = json["uploadThreshold"]?.int64Value, threshold >= 0 else { throw .jsonParsingFailed }
        uploadThreshold = threshold
        cdn = json["cdn"]?.stringValue ?? ""
        if let block = json["upload"], !block.isNull {
            upload = try MultipartTarget(json: block)
        }
    }
}
