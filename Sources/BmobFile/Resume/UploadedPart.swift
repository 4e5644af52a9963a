/// One part of a multipart upload that the storage acknowledged.
struct UploadedPart: Codable, Sendable, Equatable {
    /// 1-based part number.
    var number: Int
    /// The ETag the storage answered (with its quotes, as S3 sends it); completing the upload names it.
    var etag: String
    /// Bytes in the part.
    var size: Int64
}
