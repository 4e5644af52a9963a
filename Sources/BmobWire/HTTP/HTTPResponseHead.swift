/// The status line and header fields of a response.
package struct HTTPResponseHead: Sendable, Equatable {
    package var status: HTTPStatus
    package var headers: HTTPHeaders

    package init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.headers = headers
    }
}
