/// The body of `POST /<bucket>/<key>?uploadId=…`: which uploaded parts make the object, in order.
package struct S3CompleteMultipartUpload: Sendable, Hashable {
    /// Part numbers run from 1 to this, and a completion lists at most this many parts.
    package static let maximumParts = 10_000

    /// One part of the object.
    package struct Part: Sendable, Hashable {
        /// The part's number, 1…``S3CompleteMultipartUpload/maximumParts``.
        package var partNumber: Int
        /// The entity tag the part's upload answered, as it was answered (quotes included).
        package var etag: String

        /// A part from its number and entity tag.
        package init(partNumber: Int, etag: String) {
            self.partNumber = partNumber
            self.etag = etag
        }
    }

    /// The parts, in strictly ascending part-number order.
    package var parts: [Part]

    /// A completion of `parts`.
    package init(parts: [Part]) {
        self.parts = parts
    }

    /// Reads a `<CompleteMultipartUpload>` element: at least one and at most ``maximumParts`` parts, each with
    /// a number in 1…``maximumParts`` and an ETag, in strictly ascending order (S3's `InvalidPartOrder`
    /// otherwise). Unknown children (checksums) are ignored.
    package init(element: S3XMLElement) throws(S3XMLError) {
        try element.expect("CompleteMultipartUpload")
        let partElements = element.children("Part")
        guard !partElements.isEmpty else { throw S3XMLError(.missingElement, "CompleteMultipartUpload lists no Part") }
        guard partElements.count <= Self.maximumParts else {
            throw S3XMLError(.tooManyParts, "CompleteMultipartUpload lists more than \(Self.maximumParts) parts")
        }
        var parts: [Part] = []
        parts.reserveCapacity(partElements.count)
        for partElement in partElements {
            let number = Int(try partElement.requiredInteger("PartNumber", in: 1...Int64(Self.maximumParts)))
            if let previous = parts.last, previous.partNumber >= number {
                throw S3XMLError(.invalidPartOrder, "parts must be listed in ascending part-number order")
            }
            parts.append(Part(partNumber: number, etag: try partElement.requiredText("ETag")))
        }
        self.init(parts: parts)
    }

    /// Reads a document.
    package init(xml: some Collection<UInt8>) throws(S3XMLError) {
        try self.init(element: S3XMLReader.parse(xml))
    }

    /// The element, in S3's namespace.
    package var element: S3XMLElement {
        S3XMLElement(
            "CompleteMultipartUpload", attributes: ["xmlns": S3XMLWriter.namespace],
            children: parts.map {
                S3XMLElement("Part", children: [.leaf("PartNumber", String($0.partNumber)), .leaf("ETag", $0.etag)])
            })
    }

    /// The request body.
    package var xml: String {
        S3XMLWriter.document(element)
    }
}
