import BmobCrypto
package import BmobWire
import Foundation

/// The object operations the S3 provider makes on its bucket, each signed with SigV4 (the payload's SHA-256 in
/// `x-amz-content-sha256`) with the server's long-lived key, path style or virtual-host style as configured.
///
/// Statuses other than the expected ones become ``S3StorageError``s naming S3's error code.
package struct S3Client: Sendable {
    /// The bucket.
    package let bucket: String
    /// Where object requests go: the service endpoint (path style) or the bucket's own host (virtual-host).
    private let objectEndpoint: S3Endpoint
    /// The path before an object's key: `/<base>/<bucket>` in path style, `/<base>` otherwise.
    private let objectPathPrefix: String
    private let signer: SigV4Signer
    private let transport: S3HTTPTransport

    /// A client of `configuration`'s bucket at `endpoint` (its parsed ``S3StorageConfiguration/endpoint``).
    package init(configuration: S3StorageConfiguration, endpoint: S3Endpoint, transport: S3HTTPTransport) {
        bucket = configuration.bucket
        objectEndpoint = configuration.pathStyle ? endpoint : endpoint.withBucketHost(configuration.bucket)
        objectPathPrefix = endpoint.basePath + (configuration.pathStyle ? "/" + configuration.bucket : "")
        signer = SigV4Signer(
            credentials: SigV4Credentials(
                accessKeyId: configuration.accessKeyId, secretAccessKey: configuration.secretAccessKey),
            region: configuration.region)
        self.transport = transport
    }

    /// `PutObject`: stores `bytes` under `key` with `headers` (`Content-Type`, …) as its metadata.
    ///
    /// - Throws: ``S3StorageError``.
    package func putObject(_ key: FileKey, bytes: [UInt8], headers: [(name: String, value: String)]) async throws {
        let answer = try await send("PutObject", key, method: "PUT", headers: headers, body: bytes)
        guard answer.isSuccess else { throw answer.failure(operation: "PutObject", resource: key.rawValue) }
    }

    /// `HeadObject`: the size and entity tag of the object under `key`; `nil` when there is none.
    ///
    /// - Throws: ``S3StorageError`` for any answer but 200 and 404.
    package func headObject(_ key: FileKey) async throws -> S3ObjectHead? {
        let answer = try await send("HeadObject", key, method: "HEAD")
        if answer.status == 404 { return nil }
        guard answer.status == 200 else { throw answer.failure(operation: "HeadObject", resource: key.rawValue) }
        guard let length = answer.headers["content-length"].flatMap({ Int($0) }), length >= 0 else {
            throw S3StorageError(
                operation: "HeadObject", resource: key.rawValue, status: answer.status, message: "no Content-Length")
        }
        return S3ObjectHead(size: length, etag: answer.headers["etag"])
    }

    /// `DeleteObject`: removes the object under `key` (S3 answers 204 whether or not there was one).
    ///
    /// - Throws: ``S3StorageError``.
    package func deleteObject(_ key: FileKey) async throws {
        let answer = try await send("DeleteObject", key, method: "DELETE")
        guard answer.isSuccess else { throw answer.failure(operation: "DeleteObject", resource: key.rawValue) }
    }

    /// `GetObject` of the bytes `first..<first + count` of the object under `key`, only while its entity tag is
    /// still `etag` (when given), so that the pieces of one download all come from the same object.
    ///
    /// - Throws: ``S3StorageError``, also when S3 sends other bytes than asked for.
    package func getObject(_ key: FileKey, first: Int, count: Int, etag: String?) async throws -> [UInt8] {
        var headers: [(name: String, value: String)] = [("Range", "bytes=\(first)-\(first + count - 1)")]
        if let etag { headers.append(("If-Match", etag)) }
        let answer = try await send("GetObject", key, method: "GET", headers: headers)
        guard answer.isSuccess else { throw answer.failure(operation: "GetObject", resource: key.rawValue) }
        // A service may answer a range covering the whole object with the whole object (200).
        let placed =
            answer.status == 206 ? answer.headers["content-range"]?.hasPrefix("bytes \(first)-") == true : first == 0
        guard placed, answer.body.count == count else {
            throw S3StorageError(
                operation: "GetObject", resource: key.rawValue, status: answer.status,
                message: "asked for bytes \(first)-\(first + count - 1), got "
                    + (answer.headers["content-range"] ?? "\(answer.body.count) bytes"))
        }
        return answer.body
    }

    /// Signs and sends one request for `key`, at the current time.
    private func send(
        _ operation: String, _ key: FileKey, method: String, headers: [(name: String, value: String)] = [],
        body: [UInt8] = []
    ) async throws -> S3HTTPAnswer {
        let request = SigV4Request(
            method: method, unencodedPath: objectPathPrefix + "/" + key.rawValue,
            headers: [(name: "host", value: objectEndpoint.authority)] + headers, payloadHash: SHA256.hex(body))
        let signed = signer.sign(request, secondsSince1970: Int64(Date().timeIntervalSince1970))
        return try await transport.send(
            operation: operation, resource: key.rawValue, method: method,
            url: objectEndpoint.scheme + "://" + objectEndpoint.authority + request.path, headers: headers + signed,
            body: body)
    }
}
