import BmobHTTP
import BmobServerCodecs
import BmobWire

/// Downloads: `GET`/`HEAD /<yyyy>/<MM>/<dd>/<name>`, the file under that key (a file's URL is its key under the
/// file base URL), streamed with `Range` support. A key names one file forever, so the `ETag` is its random
/// name and the answer may be cached for a year; `If-None-Match` answers 304. No app headers: file URLs are
/// public, as on Bmob's CDN; what cannot be guessed is the 128-bit name. With ``FileSettings/signedDownloads``
/// a file is served only at a signed URL (`?expires=…&signature=…`, ``DownloadSigner``), a 403 with Bmob's 501
/// otherwise, and the answer may be cached privately until the URL expires, no longer.
///
/// Both providers answer the same way: the local one from disk, the S3 one from the bucket through the server
/// (ranged reads, see ``S3ObjectSource``), so a file's URL, validators and type do not depend on where it is
/// kept, and the bucket can stay private. A storage that cannot be reached is a 503.
package enum FileDownloadRoutes {
    /// Adds the routes.
    package static func register(in router: inout BmobRouter, files: FileService) {
        for method in [HTTPMethod.get, .head] {
            router.open(method, "/:year/:month/:day/:name") { request in
                try await download(request, files: files)
            }
        }
    }

    private static func download(_ request: BmobRequest, files: FileService) async throws -> HTTPResponse {
        let path = ["year", "month", "day", "name"].map { request.parameter($0) }.joined(separator: "/")
        guard let key = FileKey(path) else { throw BmobAPIError(.notFound, "no such file", status: .notFound) }
        var cacheControl = "public, max-age=31536000, immutable"
        if files.settings.signedDownloads {
            // Checked before the storage is asked, so an unsigned request learns nothing, not even whether the
            // file exists.
            let now = files.clock.nowMilliseconds() / 1000
            let expires = request.http.query("expires")
            switch files.downloads.check(key: key, expires: expires, signature: request.http.query("signature"), now: now) {
            case .valid:
                cacheControl = "private, max-age=\(max(0, (expires.flatMap { Int64($0) } ?? now) - now))"
            case .missing:
                throw BmobAPIError(.forbidden, "this file is served at signed URLs only", status: .forbidden)
            case .expired:
                throw BmobAPIError(.forbidden, "the signed URL has expired", status: .forbidden)
            case .invalid:
                throw BmobAPIError(.forbidden, "the URL's signature is not valid for this file", status: .forbidden)
            }
        }
        guard let file = try await open(key, storage: files.storage) else {
            throw BmobAPIError(.notFound, "no such file", status: .notFound)
        }
        let name = key.rawValue.split(separator: "/").last!
        let etag = "\"" + name[..<name.firstIndex(of: ".")!] + "\""
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Cache-Control", value: cacheControl)
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
