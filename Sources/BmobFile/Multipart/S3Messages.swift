import BmobWire
import Foundation

/// The XML bodies of S3's multipart API as ``S3MultipartClient`` needs them, through BmobWire's S3 codec.
enum S3Messages {
    /// One page of a `ListPartsResult`.
    struct PartsPage: Sendable {
        /// The parts on the page.
        var parts: [UploadedPart]
        /// Whether more pages follow.
        var isTruncated: Bool
        /// The `part-number-marker` of the next page.
        var nextMarker: String?
    }

    /// The `UploadId` of an `InitiateMultipartUploadResult`, or `nil` when the body is not one.
    static func uploadId(in body: Data) -> String? {
        (try? S3InitiateMultipartUploadResult(xml: body))?.uploadId
    }

    /// The parts of a `ListPartsResult`, or `nil` when the body is not one.
    static func parts(in body: Data) -> PartsPage? {
        guard let result = try? S3ListPartsResult(xml: body) else { return nil }
        return PartsPage(
            parts: result.parts.map { UploadedPart(number: $0.partNumber, etag: $0.etag, size: $0.size) },
            isTruncated: result.isTruncated, nextMarker: result.nextPartNumberMarker.map(String.init))
    }

    /// A `CompleteMultipartUpload` naming `parts` (sorted here, as S3 requires).
    static func completeBody(_ parts: [UploadedPart]) -> Data {
        let message = S3CompleteMultipartUpload(
            parts: parts.sorted { $0.number < $1.number }.map { .init(partNumber: $0.number, etag: $0.etag) })
        return Data(message.xml.utf8)
    }

    /// The failure `body` describes when it is S3's `<Error>` document, else `nil`. An error inside a `200`
    /// (a completion that failed after it started) counts as a 500, which may be tried again.
    static func failure(in body: Data, status: Int) -> S3Failure? {
        guard !body.isEmpty, let root = try? S3XMLReader.parse(body), root.localName == "Error",
            let error = try? S3ErrorResponse(element: root)
        else { return nil }
        return S3Failure(status: status == 200 ? 500 : status, code: error.code, message: error.message)
    }
}
