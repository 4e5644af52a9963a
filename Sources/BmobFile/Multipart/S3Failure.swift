import BmobCore
import BmobWire

/// An error answer of the storage's S3 API (its XML `<Error>`), or a `200` without what it should carry.
struct S3Failure: Error, Sendable, Equatable {
    /// The HTTP status.
    var status: Int
    /// S3's error code, such as `NoSuchUpload`; empty when the body had none.
    var code: String
    /// S3's message.
    var message: String

    /// Whether the storage does not know the upload (completed, aborted or expired).
    var isUnknownUpload: Bool {
        code == "NoSuchUpload" || (code.isEmpty && status == 404)
    }

    /// Whether fresh credentials may help (expired or refused credentials).
    var isCredentialProblem: Bool {
        status == 403 || ["ExpiredToken", "InvalidToken", "TokenRefreshRequired", "InvalidAccessKeyId"].contains(code)
    }

    /// Whether trying again later may work.
    var isTransient: Bool {
        status >= 500 || status == 408 || status == 429
            || ["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable"].contains(code)
    }

    /// The error the SDK throws: Bmob's 150 (upload error), naming what the storage said.
    var bmobError: BmobError {
        let detail = code.isEmpty ? "" : " \(code)"
        let text = message.isEmpty ? "" : ": \(message)"
        return .serverError(
            code: BmobErrorCode.fileUploadError.rawValue, message: "the storage answered \(status)\(detail)\(text)")
    }
}
