/// The answer to `GET /<bucket>/<key>?uploadId=…`: the parts uploaded so far, one page of them.
package struct S3ListPartsResult: Sendable, Hashable {
    /// One uploaded part.
    package struct Part: Sendable, Hashable {
        /// The part's number, 1…``S3CompleteMultipartUpload/maximumParts``.
        package var partNumber: Int
        /// The part's entity tag, quotes included as S3 writes it.
        package var etag: String
        /// The part's size in bytes.
        package var size: Int64
        /// When the part was uploaded, as S3 writes it (ISO 8601, `2025-01-02T03:04:05.000Z`).
        package var lastModified: String?

        /// A part from its fields.
        package init(partNumber: Int, etag: String, size: Int64, lastModified: String? = nil) {
            self.partNumber = partNumber
            self.etag = etag
            self.size = size
            self.lastModified = lastModified
        }
    }

    /// The bucket.
    package var bucket: String
    /// The object key.
    package var key: String
    /// The upload.
    package var uploadId: String
    /// The parts on this page, by part number.
    package var parts: [Part]
    /// Whether more parts follow; ask again with `part-number-marker` = ``nextPartNumberMarker``.
    package var isTruncated: Bool
    /// The last part number on this page, where the next page starts after.
    package var nextPartNumberMarker: Int?

    /// A result from its fields.
    package init(
        bucket: String, key: String, uploadId: String, parts: [Part], isTruncated: Bool = false,
        nextPartNumberMarker: Int? = nil
    ) {
        self.bucket = bucket
        self.key = key
        self.uploadId = uploadId
        self.parts = parts
        self.isTruncated = isTruncated
        self.nextPartNumberMarker = nextPartNumberMarker
    }

    /// Reads a `<ListPartsResult>` element. `IsTruncated` defaults to false and an empty
    /// `NextPartNumberMarker` reads as none; part numbers must be 1…10,000 and sizes non-negative, at most
    /// 10,000 parts. Unknown children (`Initiator`, `Owner`, `StorageClass`, `MaxParts`, checksums) are ignored.
    package init(element: S3XMLElement) throws(S3XMLError) {
        // moto answers `ListPartsOutput`, the name of the shape in AWS's service model, with the same children.
        if element.localName != "ListPartsOutput" { try element.expect("ListPartsResult") }
        let maximum = S3CompleteMultipartUpload.maximumParts
        let partElements = element.children("Part")
        guard partElements.count <= maximum else {
            throw S3XMLError(.tooManyParts, "ListPartsResult lists more than \(maximum) parts")
        }
        var parts: [Part] = []
        parts.reserveCapacity(partElements.count)
        for partElement in partElements {
            parts.append(
                Part(
                    partNumber: Int(try partElement.requiredInteger("PartNumber", in: 1...Int64(maximum))),
                    etag: try partElement.requiredText("ETag"),
                    size: try partElement.requiredInteger("Size", in: 0...Int64.max),
                    lastModified: partElement.optionalText("LastModified")))
        }
        self.init(
            bucket: try element.requiredText("Bucket"), key: try element.requiredText("Key"),
            uploadId: try element.requiredText("UploadId"), parts: parts,
            isTruncated: try element.optionalBool("IsTruncated") ?? false,
            nextPartNumberMarker: try element.optionalInteger("NextPartNumberMarker", in: 0...Int64(maximum)).map { Int($0) })
    }

    /// Reads a document.
    package init(xml: some Collection<UInt8>) throws(S3XMLError) {
        try self.init(element: S3XMLReader.parse(xml))
    }

    /// The element, in S3's namespace.
    package var element: S3XMLElement {
        var children: [S3XMLElement] = [.leaf("Bucket", bucket), .leaf("Key", key), .leaf("UploadId", uploadId)]
        if let nextPartNumberMarker { children.append(.leaf("NextPartNumberMarker", String(nextPartNumberMarker))) }
        children.append(.leaf("IsTruncated", isTruncated ? "true" : "false"))
        for part in parts {
            var fields: [S3XMLElement] = [.leaf("PartNumber", String(part.partNumber))]
            if let lastModified = part.lastModified { fields.append(.leaf("LastModified", lastModified)) }
            fields += [.leaf("ETag", part.etag), .leaf("Size", String(part.size))]
            children.append(S3XMLElement("Part", children: fields))
        }
        return S3XMLElement("ListPartsResult", attributes: ["xmlns": S3XMLWriter.namespace], children: children)
    }

    /// The document S3 sends.
    package var xml: String {
        S3XMLWriter.document(element)
    }
}
