package import BmobHTTP
package import BmobWire

/// An error answered to a client in Bmob's shape: `{"code": <Bmob code>, "error": "<message>"}` with an HTTP
/// status. Services throw it; each front door encodes it (REST as JSON, `/8/` inside its envelope).
package struct BmobAPIError: Error, HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    package var status: HTTPStatus
    package var code: BmobErrorCode
    package var message: String

    package init(_ code: BmobErrorCode, _ message: String, status: HTTPStatus = .badRequest) {
        self.status = status
        self.code = code
        self.message = message
    }

    package var description: String { "\(code.rawValue): \(message)" }

    package var response: HTTPResponse {
        Self.body(status: status, code: code.rawValue, message: message)
    }

    /// The JSON error response every part of the server uses.
    package static func body(status: HTTPStatus, code: Int, message: String) -> HTTPResponse {
        .json(["code": .int(Int64(code)), "error": .string(message)], status: status)
    }

    /// An unknown app, or a key that does not match it (HTTP 401).
    package static let unauthorized = BmobAPIError(.unauthorized, "unauthorized", status: .unauthorized)
}
