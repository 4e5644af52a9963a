import BmobCore

/// What one upload of a ``BmobFile`` works with, taken from the file when it starts.
struct UploadJob: Sendable {
    /// The bytes.
    var content: FileContent
    /// The name sent to the server.
    var filename: String
    /// The MIME type sent with a small upload.
    var mimeType: String
    /// The client requests go through.
    var client: BmobClient
    /// The content's SHA-256 from an earlier attempt, when known.
    var contentHash: String?
    /// The test hook of ``BmobFile/multipartObserver``.
    var observer: (@Sendable (MultipartEvent) -> Void)?
}
