/// What `HeadObject` tells of a stored object: its size and S3's entity tag.
package struct S3ObjectHead: Sendable, Equatable {
    /// The object's size in bytes.
    package var size: Int
    /// S3's `ETag` (quoted, as sent), which ranged reads of the object require to be unchanged; `nil` when
    /// the service sent none.
    package var etag: String?

    /// A head from its parts.
    package init(size: Int, etag: String?) {
        self.size = size
        self.etag = etag
    }
}
