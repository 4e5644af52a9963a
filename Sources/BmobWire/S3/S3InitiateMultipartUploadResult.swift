/// The answer to `POST /<bucket>/<key>?uploads`: the upload id every later request of the upload names.
package struct S3InitiateMultipartUploadResult: Sendable, Hashable {
    /// The bucket.
    package var bucket: String
    /// The object key.
    package var key: String
    /// The id of the new upload.
    package var uploadId: String

    /// A result from its parts.
    package init(bucket: String, key: String, uploadId: String) {
        self.bucket = bucket
        self.key = key
        self.uploadId = uploadId
    }

    /// Reads an `<InitiateMultipartUploadResult>` element; unknown children are ignored.
    package init(element: S3XMLElement) throws(S3XMLError) {
        try element.expect("InitiateMultipartUploadResult")
        self.init(
            bucket: try element.requiredText("Bucket"), key: try element.requiredText("Key"),
            uploadId: try element.requiredText("UploadId"))
    }

    /// Reads a document.
    package init(xml: some Collection<UInt8>) throws(S3XMLError) {
        try self.init(element: S3XMLReader.parse(xml))
    }

    /// The element, in S3's namespace.
    package var element: S3XMLElement {
        S3XMLElement(
            "InitiateMultipartUploadResult", attributes: ["xmlns": S3XMLWriter.namespace],
            children: [.leaf("Bucket", bucket), .leaf("Key", key), .leaf("UploadId", uploadId)])
    }

    /// The document S3 sends.
    package var xml: String {
        S3XMLWriter.document(element)
    }
}
