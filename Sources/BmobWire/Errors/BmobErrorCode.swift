/// A Bmob protocol error code, as sent in `{"code": …, "error": …}` bodies and native envelopes.
///
/// The codes live here once, shared by the server's front doors and the SDK. Any integer is a valid code
/// (servers may send codes this list does not name); the static members are the ones Bmob documents.
package struct BmobErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: Int

    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    package init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    package var description: String { String(rawValue) }

    /// Object not found; also "username or password incorrect".
    package static let objectNotFound = Self(101)
    /// Invalid query key or value.
    package static let invalidQuery = Self(102)
    /// Missing objectId or invalid class name.
    package static let invalidClassName = Self(103)
    /// Relation class missing.
    package static let missingRelationClass = Self(104)
    /// Invalid or reserved field name.
    package static let invalidFieldName = Self(105)
    /// Bad pointer.
    package static let invalidPointer = Self(106)
    /// Invalid JSON, non-JSON content type, invalid date, bad ACL or invalid `__op`.
    package static let invalidJSON = Self(107)
    /// Username and password required.
    package static let usernamePasswordRequired = Self(108)
    /// Login data required.
    package static let loginDataRequired = Self(109)
    /// Type mismatch for a field.
    package static let incorrectType = Self(111)
    /// `requests` must be an array.
    package static let batchNotArray = Self(112)
    /// Malformed batch element.
    package static let invalidBatchElement = Self(113)
    /// More than 50 batch requests.
    package static let batchTooLarge = Self(114)
    /// Latitude or longitude out of range.
    package static let invalidGeoPoint = Self(117)
    /// A required parameter is missing.
    package static let missingParameter = Self(118)
    /// Email verification is disabled.
    package static let emailVerificationDisabled = Self(120)
    /// Bad or duplicate role name.
    package static let invalidRoleName = Self(139)
    /// File too large.
    package static let fileTooLarge = Self(145)
    /// File name needs base64 or a suffix.
    package static let invalidFileName = Self(146)
    /// Empty file.
    package static let emptyFile = Self(149)
    /// A file upload failed (storage unavailable, an upload that is incomplete or does not match).
    package static let fileUploadError = Self(150)
    /// A file could not be deleted (no such file for this app).
    package static let fileDeleteError = Self(151)
    /// The caller does not own the file.
    package static let fileNotOwner = Self(153)
    /// Some files of a batch delete failed.
    package static let fileBatchDeleteError = Self(154)
    /// Field missing.
    package static let missingField = Self(201)
    /// Username already taken.
    package static let usernameTaken = Self(202)
    /// Email already taken.
    package static let emailTaken = Self(203)
    /// Email required.
    package static let emailMissing = Self(204)
    /// No user with that email or username.
    package static let userNotFound = Self(205)
    /// Needs the master key or a session.
    package static let sessionRequired = Self(206)
    /// SMS or email code wrong.
    package static let invalidCode = Self(207)
    /// authData error, or already linked.
    package static let authDataError = Self(208)
    /// Mobile number already taken.
    package static let mobilePhoneTaken = Self(209)
    /// Old password incorrect.
    package static let oldPasswordIncorrect = Self(210)
    /// Not logged in, or the session expired.
    package static let invalidSession = Self(211)
    /// Validation failed.
    package static let validationFailed = Self(301)
    /// Cloud-code call error.
    package static let cloudCodeError = Self(310)
    /// Invalid cloud-code name.
    package static let invalidCloudCodeName = Self(311)
    /// Unique-index duplicate. Also used, with HTTP status 401, for an unknown app or a wrong key.
    package static let duplicateValue = Self(401)
    /// Unknown app or wrong key (HTTP status 401).
    package static let unauthorized = Self(401)
    /// `where` too large.
    package static let whereTooLarge = Self(402)
    /// Forbidden.
    package static let forbidden = Self(501)
    /// Invalid BQL.
    package static let invalidBQL = Self(601)
    /// SMS rate limit reached.
    package static let smsRateLimited = Self(10010)
    /// Requests-per-second limit reached.
    package static let rateLimited = Self(10076)
    /// Too many wrong passwords or verification codes: the account, phone number or client is locked out for a
    /// while. Bmob has no code of its own for this; it shares 10076 with ``rateLimited``, the code clients
    /// already treat as "slow down and retry later".
    package static let tooManyFailedAttempts = Self(10076)
    /// The object changed since the version the request named (history revert's `ifUpdatedAt`). Not a Bmob
    /// cloud code (Bmob has no conditional writes); the HTTP status of a conflict, echoed in `code`.
    package static let changedSinceRead = Self(409)
    /// Malformed HTTP request (not a Bmob code; the HTTP status, echoed in `code`).
    package static let badRequest = Self(400)
    /// No route for the request (the HTTP status, echoed in `code`).
    package static let notFound = Self(404)
    /// Wrong method for the route (the HTTP status, echoed in `code`).
    package static let methodNotAllowed = Self(405)
    /// Request body larger than allowed.
    package static let payloadTooLarge = Self(413)
    /// Header block larger than allowed.
    package static let headersTooLarge = Self(431)
    /// Unexpected server fault.
    package static let internalError = Self(500)
    /// The server is overloaded or shutting down.
    package static let unavailable = Self(503)
}
