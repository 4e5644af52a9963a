public import Foundation

/// Every error the SDK throws.
///
/// Server errors keep Bmob's code and message (``serverError(code:message:)``); a few common situations have
/// their own case so that code can `switch` on them.
public enum BmobError: Error, Sendable {
    /// A call was made before ``Bmob/initialize(appKey:)`` finished successfully.
    case notInitialized
    /// An argument was rejected before anything was sent.
    case invalidParameter(reason: String)
    /// The request did not reach the server, or its answer did not come back.
    case networkError(underlying: any Error)
    /// The server answered with a Bmob error code.
    case serverError(code: Int, message: String)
    /// The account, password, session or verification code was not accepted.
    case authenticationFailed
    /// The object does not exist (Bmob code 101 on a read, update or delete).
    case objectNotFound
    /// The server did not answer in time.
    case timeout
    /// The server's answer could not be decrypted or was not the JSON expected.
    case jsonParsingFailed
}

extension BmobError {
    /// The Bmob error code when the server sent one: the code of ``serverError(code:message:)``, 101 for
    /// ``objectNotFound``; `nil` for errors raised on the device.
    public var code: Int? {
        switch self {
        case .serverError(let code, _): code
        case .objectNotFound: 101
        default: nil
        }
    }

    /// The error for a server answer with Bmob code `code`: 101 becomes ``objectNotFound``, everything else
    /// ``serverError(code:message:)``.
    package static func server(code: Int, message: String) -> BmobError {
        code == 101 ? .objectNotFound : .serverError(code: code, message: message)
    }
}

extension BmobError: LocalizedError {
    /// A sentence describing the error.
    public var errorDescription: String? {
        switch self {
        case .notInitialized: "Bmob is not initialized: call Bmob.initialize(appKey:) first"
        case .invalidParameter(let reason): "invalid parameter: \(reason)"
        case .networkError(let underlying): "network error: \(underlying.localizedDescription)"
        case .serverError(let code, let message): "server error \(code): \(message)"
        case .authenticationFailed: "authentication failed"
        case .objectNotFound: "object not found"
        case .timeout: "the request timed out"
        case .jsonParsingFailed: "the server's answer could not be read"
        }
    }
}

extension BmobError: CustomStringConvertible {
    /// Same as ``errorDescription``.
    public var description: String { errorDescription ?? "BmobError" }
}
