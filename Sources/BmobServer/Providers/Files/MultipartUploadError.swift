/// Why a multipart operation of the local provider failed, with the S3 error code and status its endpoint
/// answers.
package struct MultipartUploadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// S3's error code (`NoSuchUpload`, `InvalidPart`, …).
    package var code: String
    /// The HTTP status.
    package var status: Int
    /// What went wrong, safe to show the client.
    package var message: String

    package init(_ code: String, status: Int, _ message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    package var description: String { "\(code): \(message)" }

    static let noSuchUpload = MultipartUploadError(
        "NoSuchUpload", status: 404, "the upload does not exist: it was completed, aborted or expired")
}
