import BmobHTTP
import BmobWire

/// Downloads: `GET`/`HEAD /<yyyy>/<MM>/<dd>/<name>`, the file under that key (a file's URL is its key under the
/// file base URL), streamed with `Range` support. A key names one file forever, so the `ETag` is its random
/// name and the answer may be cached for a year; `If-None-Match` answers 304. No app headers: file URLs are
/// public, as on Bmob's CDN; what cannot be guessed is the 128-bit name.
package enum FileDownloadRoutes {
    /// Adds the routes.
    package static func register(in router: inout BmobRouter, storage: any FileStorage) {
        for method in [HTTPMethod.get, .head] {
            router.open(method, "/:year/:month/:day/:name") { request in
                try await download(request, storage: storage)
            }
        }
    }

    private static func download(_ request: BmobRequest, storage: any FileStorage) async throws -> HTTPResponse {
        let path = [request.parameter("year"), request.parameter("month"), request.parameter("day"), request.parameter("name")]
            .joined(separator: "/")
        guard let key = FileKey(path), let file = try await storage.open(key) else {
            throw BmobAPIError(.notFound, "no such file", status: .notFound)
        }
        let name = key.rawValue.split(separator: "/").last!
        let etag = "\"" + name[..<name.firstIndex(of: ".")!] + "\""
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Cache-Control", value: "public, max-age=31536000, immutable")
        if let match = request.http.headers["If-None-Match"], match.split(separator: ",").contains(where: {
            let tag = $0.trimmingSpaces()
            return tag == etag || tag == "W/" + etag || tag == "*"
        }) {
            return HTTPResponse(status: HTTPStatus(code: 304), headers: headers)
        }
        return .file(
            file, for: request.http.head, contentType: FileContentType.forExtension(key.fileExtension), headers: headers)
    }
}
