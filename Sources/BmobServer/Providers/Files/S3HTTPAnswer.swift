import BmobWire

/// What S3 or its token service answered one request: status, header fields and body.
package struct S3HTTPAnswer: Sendable {
    /// The HTTP status.
    package var status: Int
    /// The header fields, names lowercased.
    package var headers: [String: String]
    /// The body.
    package var body: [UInt8]

    /// An answer from its parts.
    package init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }

    /// The failure this answer reports for `operation` of `service` on `resource`: S3's `<Error>` code and
    /// message (inside STS's `<ErrorResponse>` too) when the body holds one, else the status alone.
    package func failure(service: String = "S3", operation: String, resource: String) -> S3StorageError {
        var error = S3StorageError(
            service: service, operation: operation, resource: resource, status: status, message: "")
        if let root = try? S3XMLReader.parse(body) {
            let element = root.localName == "ErrorResponse" ? root.child("Error") : root
            if let element, let parsed = try? S3ErrorResponse(element: element) {
                error.code = parsed.code
                error.message = parsed.message
            }
        }
        if error.code == nil && error.message.isEmpty {
            error.message = body.isEmpty ? "no error document" : "an answer that is not an S3 error document"
        }
        return error
    }
}
