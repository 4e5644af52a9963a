/// A step of a multipart upload, reported to ``BmobFile/multipartObserver`` (tests count the parts sent).
package enum MultipartEvent: Sendable, Equatable {
    /// A new multipart upload of `partCount` parts began at the storage.
    case initiated(partCount: Int)
    /// An earlier upload of `partCount` parts is resumed; `parts` are already in the storage and will not be
    /// sent again.
    case resumed(parts: [Int], partCount: Int)
    /// A part's bytes are being sent.
    case sending(part: Int)
    /// The storage acknowledged a part.
    case acknowledged(part: Int)
    /// `/8/cdn` issued fresh credentials for the upload's key (the old ones were expiring or refused).
    case credentialsRenewed
    /// The storage assembled the parts into the file.
    case completed
}
