/// The answer to a completed multipart upload (`POST /<bucket>/<key>?uploadId=…`).
///
/// S3 may answer 200 with an `<Error>` document instead, when completion fails after it started: read the
/// root's name before choosing this type or ``S3ErrorResponse``.
package struct S3CompleteMultipartUploadResult: Sendable, Hashable {
    /// The object's URL.
    package var location: String
    /// The bucket.
    package var bucket: String
    /// The object key.
    package var key: String
    /// The object's entity tag, quotes included as S3 writes it (`"<hex>-<part count>"`).
    package var etag: String

    /// A result from its parts.
    package init(location: String, bucket: String, key: String, etag: String) {
        self.location = location
        self.bucket = bucket
        self.key = key
        self.etag = etag
    }

    /// Reads a `<CompleteMultipartUploadResult>` element; unknown children (checksums) are ignored.
    package init(element: S3XMLElement) throws(S3XMLError) {
        try element.expect("CompleteMultipartUploadResult")
        self.init(
            location: try element.requiredText("Location"), bucket: try element.requiredText("Bucket"),
            key: try element.requiredText("Key"), etag: try element.requiredText("ETag"))
    }

    /// Reads a document.
    package init(xml: some Collection<UInt8>) throws(S3XMLError) {
        try self.init(element: S3XMLReader.parse(xml))
    }

    /// The element, in S3's namespace.
    package var element: S3XMLElement {
        S3XMLElement(
            "CompleteMultipartUploadResult", attributes: ["xmlns": S3XMLWriter.namespace],
            children: [.leaf("Location", location), .leaf("Bucket", bucket), .leaf("Key", key), .leaf("ETag", etag)])
    }

    /// The document S3 sends.
    package var xml: String {
        S3XMLWriter.document(element)
    }
}
