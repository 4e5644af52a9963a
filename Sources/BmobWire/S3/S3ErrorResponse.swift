/// S3's `<Error>` document: what every failed S3 request answers, with the HTTP status.
package struct S3ErrorResponse: Error, Sendable, Hashable, CustomStringConvertible {
    /// S3's error code, such as `NoSuchUpload` or `SignatureDoesNotMatch`.
    package var code: String
    /// A sentence for people.
    package var message: String
    /// The bucket or object concerned.
    package var resource: String?
    /// The request's id, for support.
    package var requestId: String?

    /// An error from its parts.
    package init(code: String, message: String, resource: String? = nil, requestId: String? = nil) {
        self.code = code
        self.message = message
        self.resource = resource
        self.requestId = requestId
    }

    /// Reads an `<Error>` element; a missing `Message` reads as empty, `RequestID` (moto's spelling) as
    /// `RequestId`, and unknown children (`HostId`, the region or key S3 adds for some codes) are ignored.
    package init(element: S3XMLElement) throws(S3XMLError) {
        try element.expect("Error")
        self.init(
            code: try element.requiredText("Code"), message: element.optionalText("Message") ?? "",
            resource: element.optionalText("Resource"),
            requestId: element.optionalText("RequestId") ?? element.optionalText("RequestID"))
    }

    /// Reads a document.
    package init(xml: some Collection<UInt8>) throws(S3XMLError) {
        try self.init(element: S3XMLReader.parse(xml))
    }

    /// The element. S3 declares no namespace on errors.
    package var element: S3XMLElement {
        var children: [S3XMLElement] = [.leaf("Code", code), .leaf("Message", message)]
        if let resource { children.append(.leaf("Resource", resource)) }
        if let requestId { children.append(.leaf("RequestId", requestId)) }
        return S3XMLElement("Error", children: children)
    }

    /// The document S3 sends.
    package var xml: String {
        S3XMLWriter.document(element)
    }

    /// The code and the message.
    package var description: String {
        message.isEmpty ? code : "\(code): \(message)"
    }
}
