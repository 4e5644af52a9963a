import BmobHTTP
import BmobServerCodecs
import BmobWire

/// Downloads: `GET`/`HEAD /<yyyy>/<MM>/<dd>/<name>`, the file under that key (a file's URL is its key under the
/// file base URL), streamed with `Range` support. A key names one file forever, so the `ETag` is its random
/// name and the answer may be cached for a year; `If-None-Match` answers 304. No app headers: file URLs are
/// public, as on Bmob's CDN; what cannot be guessed is the 128-bit name.
///
/// Both providers answer the same way: the local one from disk, the S3 one from the bucket through the server
/// (ranged reads, see ``S3ObjectSource``), so a file's URL, validators and type do not depend on where it is
/// kept, and the bucket can stay private. A storage that cannot be reached is a 503.
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
        let path = ["year", "month", "day", "name"].map { request.parameter($0) }.joined(separator: "/")
        guard let key = FileKey(path), let file = try await open(key, storage: storage) else {
            throw BmobAPIError(.notFound, "no such file", status: .notFound)
        }
        let name = key.rawValue.split(separator: "/").last!
        let etag = "\"" + name[..<name.firstIndex(of: ".")!] + "\""
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Cache-Control", value: "public, max-age=31536000, immutable")
        if let match = request.http.headers["If-None-Match"],
            match.split(separator: ",").contains(where: {
                let tag = $0.trimmingSpaces()
                return tag == etag || tag == "W/" + etag || tag == "*"
            })
        {
            return HTTPResponse(status: HTTPStatus(code: 304), headers: headers)
        }
        return .file(
            file, for: request.http.head, contentType: FileContentType.forExtension(key.fileExtension), headers: headers)
    }

    /// The file under `key`, or `nil`.
    ///
    /// - Throws: ``BmobAPIError`` 503 when the storage fails (its error is the logged cause).
    private static func open(_ key: FileKey, storage: any FileStorage) async throws -> (any HTTPByteSource)? {
        do {
            return try await storage.open(key)
        } catch let error as BmobAPIError {
            throw error
        } catch {
            throw BmobAPIError.storageUnavailable(.unavailable, "the file storage cannot be reached", cause: error)
        }
    }
}
