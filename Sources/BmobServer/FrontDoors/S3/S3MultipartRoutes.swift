import BmobCrypto
import BmobHTTP
import BmobWire

/// The local provider's S3 endpoint, `<base>/s3/files/<key>`: the multipart subset of S3's API that the SDK's
/// uploader speaks to a bucket, answered by ``LocalMultipartUploads``, so one uploader serves both providers.
///
/// - `POST ?uploads` initiates, `PUT ?partNumber&uploadId` stores a part, `GET ?uploadId` lists parts,
///   `POST ?uploadId` completes (a `CompleteMultipartUpload` body), `DELETE ?uploadId` aborts.
/// - Every request is signed with SigV4 by the short-lived credentials `/8/cdn` issued
///   (``UploadCredentialIssuer``): the session token names the app and the one key they may write; the
///   signature, the clock skew, the key and the signed payload hash are checked before any byte is read or
///   written. `UNSIGNED-PAYLOAD` is refused.
/// - This endpoint speaks S3: its errors are S3's XML `<Error>` with S3's codes and statuses.
package enum S3MultipartRoutes {
    /// The path prefix of the endpoint, after the file base URL.
    package static let pathPrefix = "/s3"

    /// Adds the routes.
    package static func register(in router: inout BmobRouter, uploads: LocalMultipartUploads, files: FileService) {
        let settings = files.settings
        let partLimit = min(5 * 1024 * 1024 * 1024, settings.maximumFileBytes)
        let pattern = pathPrefix + "/:bucket/**"
        router.open(.put, pattern, bodyLimit: partLimit, bodyStream: true) { request in
            await answer { try await uploadPart(request, uploads: uploads, files: files, limit: partLimit) }
        }
        router.open(.post, pattern, bodyLimit: 1 << 20) { request in
            await answer { try await post(request, uploads: uploads, files: files) }
        }
        router.open(.get, pattern) { request in
            await answer {
                let (key, _) = try authenticate(request, files: files)
                let uploadId = try uploadIdParameter(request)
                let parts = try await uploads.parts(uploadId: uploadId, key: key)
                let result = S3ListPartsResult(
                    bucket: FileService.localBucket, key: key.rawValue, uploadId: uploadId,
                    parts: parts.map { .init(partNumber: $0.number, etag: "\"\($0.etag)\"", size: Int64($0.size)) })
                return xml(result.xml)
            }
        }
        router.open(.delete, pattern) { request in
            await answer {
                let (key, _) = try authenticate(request, files: files)
                try await uploads.abort(uploadId: try uploadIdParameter(request), key: key)
                return HTTPResponse(status: .noContent)
            }
        }
    }

    /// `POST ?uploads` (initiate) or `POST ?uploadId` (complete).
    private static func post(_ request: BmobRequest, uploads: LocalMultipartUploads, files: FileService) async throws
        -> HTTPResponse
    {
        let (key, verified) = try authenticate(request, files: files)
        try checkPayload(request.http.body, verified)
        if request.http.queryItems.contains(where: { $0.name == "uploads" }) {
            let uploadId = try await uploads.initiate(key: key, now: request.server.clock.nowSeconds)
            return xml(S3InitiateMultipartUploadResult(bucket: FileService.localBucket, key: key.rawValue, uploadId: uploadId).xml)
        }
        let uploadId = try uploadIdParameter(request)
        let body: S3CompleteMultipartUpload
        do {
            body = try S3CompleteMultipartUpload(xml: request.http.body)
        } catch {
            throw S3Failure("MalformedXML", status: 400, "the CompleteMultipartUpload body is not valid: \(error)")
        }
        let minimum = min(FileService.minimumPartBytes, files.settings.partBytes)
        let (_, etag) = try await uploads.complete(
            uploadId: uploadId, key: key, chosen: body.parts.map { ($0.partNumber, $0.etag) }, minimumPartBytes: minimum,
            maximumBytes: files.settings.maximumFileBytes)
        let result = S3CompleteMultipartUploadResult(
            location: files.url(of: key), bucket: FileService.localBucket, key: key.rawValue, etag: "\"\(etag)\"")
        return xml(result.xml)
    }

    /// `PUT ?partNumber&uploadId`: one part, streamed to disk while its SHA-256 is checked.
    private static func uploadPart(
        _ request: BmobRequest, uploads: LocalMultipartUploads, files: FileService, limit: Int
    ) async throws -> HTTPResponse {
        let (key, verified) = try authenticate(request, files: files)
        guard let sha256 = verified.payloadSHA256 else {
            throw S3Failure("InvalidRequest", status: 400, "parts must be signed with their SHA-256, not UNSIGNED-PAYLOAD")
        }
        guard let number = request.http.query("partNumber").flatMap({ Int($0) }), (1...FileService.maximumParts).contains(number)
        else {
            throw S3Failure("InvalidArgument", status: 400, "partNumber must be an integer from 1 to 10000")
        }
        let uploadId = try uploadIdParameter(request)
        guard let body = request.http.bodyStream else {
            throw S3Failure("IncompleteBody", status: 400, "the part has no body")
        }
        let part = try await uploads.writePart(
            uploadId: uploadId, key: key, number: number, body: body, sha256: sha256, maximumBytes: limit)
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: "\"\(part.etag)\"")
        return HTTPResponse(status: .ok, headers: headers)
    }

    /// Checks the request's signature and credentials; returns the key they allow (the path's) and what the
    /// signature covers.
    private static func authenticate(_ request: BmobRequest, files: FileService) throws -> (FileKey, SigV4VerifiedRequest) {
        guard request.parameter("bucket") == FileService.localBucket else {
            throw S3Failure("NoSuchBucket", status: 404, "the bucket does not exist")
        }
        guard let header = request.http.headers["Authorization"] else {
            throw S3Failure("AccessDenied", status: 403, "the request is not signed")
        }
        let authorization: SigV4Authorization
        do {
            authorization = try SigV4Authorization(parsing: header)
        } catch {
            throw S3Failure("AuthorizationHeaderMalformed", status: 400, "the Authorization header is malformed: \(error)")
        }
        guard let token = request.http.headers["x-amz-security-token"],
            let grant = files.credentials.grant(sessionToken: token)
        else {
            throw S3Failure("InvalidToken", status: 400, "the security token is missing or was not issued by this server")
        }
        let now = request.server.clock.nowSeconds
        guard grant.expiresAt >= now else {
            throw S3Failure("ExpiredToken", status: 400, "the upload's credentials expired; ask /8/cdn for new ones")
        }
        let secret = files.credentials.secretAccessKey(accessKeyId: authorization.accessKeyId, sessionToken: token)
        let verified: SigV4VerifiedRequest
        do {
            verified = try SigV4Verifier.verify(
                authorization, head: request.http.head, secretAccessKey: secret, region: FileService.localRegion)
        } catch {
            throw S3Failure(error.s3ErrorCode, status: error.httpStatus, error.description)
        }
        guard abs(verified.secondsSince1970 - now) <= SigV4Verifier.maximumClockSkewSeconds else {
            throw S3Failure("RequestTimeTooSkewed", status: 403, "the request time is too far from the server's")
        }
        guard let key = FileKey(request.parameter("**")), key == grant.key else {
            throw S3Failure("AccessDenied", status: 403, "the credentials do not allow this key")
        }
        return (key, verified)
    }

    /// Checks a buffered body against its signed SHA-256 (an unsigned one only when empty).
    private static func checkPayload(_ body: [UInt8], _ verified: SigV4VerifiedRequest) throws {
        guard let expected = verified.payloadSHA256 else {
            guard body.isEmpty else {
                throw S3Failure("InvalidRequest", status: 400, "a body must be signed with its SHA-256")
            }
            return
        }
        guard ConstantTime.equals(SHA256.hash(body), expected) else {
            throw S3Failure("XAmzContentSHA256Mismatch", status: 400, "the body's SHA-256 is not x-amz-content-sha256")
        }
    }

    private static func uploadIdParameter(_ request: BmobRequest) throws -> String {
        guard let uploadId = request.http.query("uploadId"), !uploadId.isEmpty else {
            throw S3Failure("InvalidRequest", status: 400, "uploadId is required")
        }
        return uploadId
    }

    private static func xml(_ text: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/xml")
        return HTTPResponse(status: .ok, headers: headers, body: Array(text.utf8))
    }

    /// Runs `body`, turning failures into S3's XML errors.
    private static func answer(_ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        let failure: S3Failure
        do {
            return try await body()
        } catch let error as S3Failure {
            failure = error
        } catch let error as MultipartUploadError {
            failure = S3Failure(error.code, status: error.status, error.message)
        } catch {
            failure = S3Failure("InternalError", status: 500, "the upload could not be stored")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/xml")
        let xml = S3ErrorResponse(code: failure.code, message: failure.message).xml
        return HTTPResponse(status: HTTPStatus(code: failure.status), headers: headers, body: Array(xml.utf8))
    }
}
