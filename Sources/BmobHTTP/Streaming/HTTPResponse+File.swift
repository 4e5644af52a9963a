package import BmobWire
import BmobServerCodecs

extension HTTPResponse {
    /// The answer to `head` with `file`'s bytes (a file on disk, or any other ``HTTPByteSource``), streamed as
    /// the client takes them: 200 with the whole file; for
    /// a `GET` with a `Range` header, 206 with the one range asked for, or 416 when the file has no byte in it
    /// (other range requests get the whole file, see ``HTTPByteRange/select(_:size:)``). Every answer says
    /// `Accept-Ranges: bytes`.
    ///
    /// - Parameters:
    ///   - file: the open file, or other bytes.
    ///   - head: the request's head (its method and `Range` field).
    ///   - contentType: the `Content-Type` of the file's bytes.
    ///   - headers: more fields for the answer (`Cache-Control`, `ETag`, …).
    package static func file(
        _ file: some HTTPByteSource,
        for head: HTTPRequestHead,
        contentType: String = "application/octet-stream",
        headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Accept-Ranges", value: "bytes")
        let size = file.size
        let selection: HTTPByteRange.Selection =
            head.method == .get || head.method == .head
            ? HTTPByteRange.select(head.headers["Range"], size: size) : .whole
        switch selection {
        case .whole:
            headers.replaceOrAdd(name: "Content-Type", value: contentType)
            var response = HTTPResponse(status: .ok, headers: headers)
            response.bodyStream = file.bodyStream(from: 0, count: size)
            return response
        case .range(let range):
            headers.replaceOrAdd(name: "Content-Type", value: contentType)
            headers.replaceOrAdd(name: "Content-Range", value: range.contentRange(size: size))
            var response = HTTPResponse(status: .partialContent, headers: headers)
            response.bodyStream = file.bodyStream(from: range.first, count: range.count)
            return response
        case .unsatisfiable:
            headers.replaceOrAdd(name: "Content-Range", value: HTTPByteRange.unsatisfiedContentRange(size: size))
            return HTTPResponse(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    /// A response whose body `produce` writes while it is sent, with backpressure (see
    /// ``HTTPResponseBodyStream``).
    ///
    /// - Parameters:
    ///   - length: the body's length when known (`Content-Length`); `nil` sends it chunked.
    ///   - produce: writes the body; throwing closes the connection.
    package static func streaming(
        status: HTTPStatus = .ok,
        headers: HTTPHeaders = HTTPHeaders(),
        length: Int? = nil,
        produce: @escaping @Sendable (HTTPBodyWriter) async throws -> Void
    ) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers)
        response.bodyStream = HTTPResponseBodyStream(length: length, produce: produce)
        return response
    }
}
