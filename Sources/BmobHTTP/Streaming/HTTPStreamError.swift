import BmobWire

/// Why a streamed body ended early: the request body a handler reads (``HTTPRequestBodyStream``) or the response
/// body it writes (``HTTPBodyWriter``).
///
/// A handler that lets it escape gets no further answer sent: the connection has already answered the client
/// (413, 408, 400) or is gone.
package struct HTTPStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, matched with `catch let error as HTTPStreamError where error.code == .bodyTooLarge`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case bodyTooLarge, bodyTimedOut, malformedBody, clientAborted, connectionClosed, lengthMismatch
        }

        private let value: Value

        /// The request body passed the route's limit (the client was answered 413).
        package static let bodyTooLarge = Code(value: .bodyTooLarge)
        /// The client stopped sending its body for longer than the body timeout (answered 408).
        package static let bodyTimedOut = Code(value: .bodyTimedOut)
        /// The body's framing was malformed, such as a bad chunk size (answered 400).
        package static let malformedBody = Code(value: .malformedBody)
        /// The client closed its side before the whole body arrived.
        package static let clientAborted = Code(value: .clientAborted)
        /// The connection closed (the client went away, or the server closed it), so nothing more can be read
        /// or written.
        package static let connectionClosed = Code(value: .connectionClosed)
        /// A response body of announced length was given more or fewer bytes than announced.
        package static let lengthMismatch = Code(value: .lengthMismatch)

        /// The code's name, for logs.
        package var description: String { "\(value)" }
    }

    /// The kind of failure.
    package var code: Code
    /// What happened, safe to log.
    package var message: String

    /// An error of kind `code`, described by `message` (safe to log).
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and message, safe to log.
    package var description: String { "HTTPStreamError(\(code)): \(message)" }

    /// The failure of a request body that the decoder rejected with `status`.
    static func body(rejectedWith status: HTTPStatus, _ reason: String) -> HTTPStreamError {
        HTTPStreamError(status == .payloadTooLarge ? .bodyTooLarge : .malformedBody, reason)
    }
}

extension HTTPStreamError: HTTPResponseError {
    /// The status the connection answered with, for a handler that rethrows the error (its answer is dropped:
    /// the client has been answered already, or the connection is closed).
    package var response: HTTPResponse {
        let status: HTTPStatus =
            switch code {
            case .bodyTooLarge: .payloadTooLarge
            case .bodyTimedOut: .requestTimeout
            case .lengthMismatch: .internalServerError
            default: .badRequest
            }
        return .text(message, status: status)
    }
}
