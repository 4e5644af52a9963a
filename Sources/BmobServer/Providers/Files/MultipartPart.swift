/// One stored part of a multipart upload.
package struct MultipartPart: Sendable, Equatable {
    /// 1…10,000.
    package var number: Int
    /// The part's entity tag: the first 16 bytes of its SHA-256, in hex.
    package var etag: String
    /// Its size in bytes.
    package var size: Int

    package init(number: Int, etag: String, size: Int) {
        self.number = number
        self.etag = etag
        self.size = size
    }
}
