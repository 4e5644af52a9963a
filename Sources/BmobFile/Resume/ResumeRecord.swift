/// What survives an app restart of an unfinished multipart upload: enough to ask `/8/cdn` for fresh
/// credentials for the same key, find the upload in the storage and send only the missing parts.
struct ResumeRecord: Codable, Sendable, Equatable {
    /// The file's name as given to ``BmobFile``.
    var filename: String
    /// Lowercase hex SHA-256 of the content.
    var contentHash: String
    /// Bytes in the content.
    var size: Int64
    /// The storage key the server granted.
    var key: String
    /// The storage's id of the multipart upload.
    var uploadId: String
    /// The latest upload session token: `/8/cdn`'s `resume` and `/8/savecdnupload`'s proof.
    var sessionToken: String
    /// The provider name `/8/cdn` answered, for `/8/savecdnupload`.
    var cdn: String
    /// Bytes per part when the upload began; a resumed upload keeps it so that part boundaries stay put.
    var partSize: Int
    /// The parts acknowledged so far, in no particular order.
    var parts: [UploadedPart]
    /// Whether the storage already assembled the parts (only the registration is left).
    var completed: Bool

    /// The number of parts the content has at ``partSize`` bytes each.
    var partCount: Int {
        partSize <= 0 ? 0 : Int((size + Int64(partSize) - 1) / Int64(partSize))
    }

    /// The byte count of part `number` (1-based).
    func expectedSize(ofPart number: Int) -> Int64 {
        let start = Int64(number - 1) * Int64(partSize)
        return max(0, min(Int64(partSize), size - start))
    }
}
