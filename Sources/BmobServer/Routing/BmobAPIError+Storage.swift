package import BmobWire

extension BmobAPIError {
    /// A 503 for file storage that failed (a disk, a bucket, its STS), with `code` and `message` for the client and
    /// the storage's error as the logged ``cause``.
    package static func storageUnavailable(_ code: BmobErrorCode, _ message: String, cause error: any Error) -> BmobAPIError {
        var failure = BmobAPIError(code, message, status: .serviceUnavailable)
        failure.cause = String(describing: error)
        return failure
    }
}
