package import BmobWire

/// Why a request could not be decoded, with the status the server answers before closing the connection.
package struct HTTPDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    package var status: HTTPStatus
    package var reason: String

    package init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    package var description: String { "\(status.code): \(reason)" }
}
