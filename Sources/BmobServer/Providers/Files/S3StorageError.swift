/// A request of the S3 provider to the bucket or its token service that failed: the operation, and S3's
/// status and error code when it answered, or why it could not be reached. Safe to log: it never holds a
/// secret or a signature.
package struct S3StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `S3`, or `STS` for the token service.
    package var service: String
    /// The operation, such as `PutObject` or `AssumeRole`.
    package var operation: String
    /// The object or resource concerned, such as a key.
    package var resource: String
    /// The HTTP status the service answered; `nil` when it did not answer.
    package var status: Int?
    /// S3's error code (`AccessDenied`, `NoSuchBucket`, …), when the answer held an `<Error>` document.
    package var code: String?
    /// What went wrong: S3's message, or the transport's failure.
    package var message: String

    /// A failure from its parts.
    package init(
        service: String = "S3", operation: String, resource: String, status: Int? = nil, code: String? = nil,
        message: String
    ) {
        self.service = service
        self.operation = operation
        self.resource = resource
        self.status = status
        self.code = code
        self.message = message
    }

    /// `S3 PutObject 2025/01/02/….png: HTTP 403 AccessDenied: …`.
    package var description: String {
        var text = "\(service) \(operation) \(resource): "
        if let status { text += "HTTP \(status) " }
        if let code { text += code + (message.isEmpty ? "" : ": ") }
        return text + message
    }
}
