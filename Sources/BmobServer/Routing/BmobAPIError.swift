package import BmobHTTP
package import BmobWire

/// An error answered to a client in Bmob's shape: `{"code": <Bmob code>, "error": "<message>"}` with an HTTP
/// status. Services throw it; each front door encodes it (REST as JSON, `/8/` inside its envelope).
package struct BmobAPIError: Error, HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    package var status: HTTPStatus
    package var code: BmobErrorCode
    package var message: String
    /// For the server's log only, never sent: the safe description of the fault behind a 5xx (a
    /// ``BmobStore/StoreError``'s, say), which the front door logs with the request id. Not part of `==`.
    package var cause: String?

    package init(_ code: BmobErrorCode, _ message: String, status: HTTPStatus = .badRequest) {
        self.status = status
        self.code = code
        self.message = message
    }

    package var description: String { "\(code.rawValue): \(message)" }

    package var response: HTTPResponse {
        Self.body(status: status, code: code.rawValue, message: message)
    }

    /// Whether the fault is the server's (HTTP 5xx): logged with a request id by the front door.
    package var isServerFault: Bool { status.code >= 500 }

    /// Equal when the client sees the same answer: status, code and message; ``cause`` is ignored.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message
    }

    /// The JSON error response every part of the server uses.
    package static func body(status: HTTPStatus, code: Int, message: String) -> HTTPResponse {
        .json(["code": .int(Int64(code)), "error": .string(message)], status: status)
    }

    /// An unknown app, or a key that does not match it (HTTP 401).
    package static let unauthorized = BmobAPIError(.unauthorized, "unauthorized", status: .unauthorized)
}
