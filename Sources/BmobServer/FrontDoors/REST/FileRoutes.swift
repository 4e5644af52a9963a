import BmobHTTP
import BmobWire

/// REST files: `POST /2/files/<name>` (the raw bytes as the body), `DELETE /2/files/<cdn>/<key>`,
/// `POST /2/cdnBatchDelete` (`{"<cdn>": [key or URL, …]}`) and `POST /2/signedFileURLs` (`{"urls": [key or URL, …],
/// "expiresIn": seconds}` → `{"urls": [signed URL, …], "expiresAt": seconds}`, ``FileService/signedURLs(_:expiresIn:context:)``). The cdn names in paths and bodies are Bmob's
/// clients' (`upyun`, …) and are not checked: the key alone names a file.
package enum FileRoutes {
    /// Adds the routes.
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        let limit = runner.files.settings.maximumSmallFileBytes
        // Streamed, so that a body over the limit is answered 145 as soon as it passes it, not 413.
        router.app(.post, "/2/files/:name", bodyLimit: Int.max, bodyStream: true) { request, context in
            let name = try Self.name(request.parameter("name"))
            if let length = request.http.headers["Content-Length"].flatMap({ Int($0) }), length > limit {
                throw tooLarge(limit)
            }
            let bytes: [UInt8]
            if let stream = request.http.bodyStream {
                do {
                    bytes = try await stream.collect(upTo: limit)
                } catch let error as HTTPStreamError where error.code == .bodyTooLarge {
                    throw tooLarge(limit)
                }
            } else {
                bytes = request.http.body
            }
            let mimeType = request.http.headers["Content-Type"].flatMap { $0.isEmpty ? nil : $0 }
            let result = try await runner.run(
                .uploadFile(filename: name.value, mimeType: mimeType, bytes: bytes), context: context)
            return RESTResultEncoder.response(result, context: context, server: request.server)
        }
        // The first segment is the cdn name, which the key alone makes unneeded.
        router.operation(.delete, "/2/files/:name/**", runner: runner) { request, _ in
            .deleteFile(reference: request.parameter("**"))
        }
        router.operation(.post, "/2/signedFileURLs", runner: runner) { request, _ in
            try signRequest(try request.jsonObjectBody())
        }
        router.operation(.post, "/2/cdnBatchDelete", runner: runner) { request, _ in
            do {
                return .deleteFiles(references: try FileBatchReferences.decode(try request.jsonObjectBody()))
            } catch let error as BmobRequestError {
                throw BmobAPIError(request: error)
            }
        }
    }

    /// `{"urls": [key, URL path or URL, …], "expiresIn": seconds}` (`expiresIn` optional).
    private static func signRequest(_ body: [String: JSONValue]) throws(BmobAPIError) -> Operation {
        guard case .array(let items)? = body["urls"] else {
            throw BmobAPIError(.invalidJSON, "expected {\"urls\": [file URLs], \"expiresIn\": seconds}")
        }
        let references = items.compactMap(\.stringValue)
        guard references.count == items.count else { throw BmobAPIError(.invalidJSON, "\"urls\" holds strings only") }
        var expiresIn: Int?
        if let value = body["expiresIn"] {
            guard let seconds = value.int64Value, let exact = Int(exactly: seconds) else {
                throw BmobAPIError(.invalidJSON, "\"expiresIn\" is a whole number of seconds")
            }
            expiresIn = exact
        }
        return .signFileURLs(references: references, expiresIn: expiresIn)
    }

    private static func name(_ segment: String) throws(BmobAPIError) -> FileName {
        do {
            return try FileName.fromPathSegment(segment)
        } catch {
            throw BmobAPIError(.invalidFileName, FileService.message(for: error))
        }
    }

    private static func tooLarge(_ limit: Int) -> BmobAPIError {
        BmobAPIError(.fileTooLarge, "the file is larger than \(limit) bytes; upload it in parts", status: .payloadTooLarge)
    }
}
