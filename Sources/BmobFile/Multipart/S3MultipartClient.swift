import BmobCrypto
import BmobWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The subset of S3's multipart API the uploader needs, path style (`<endpoint>/<bucket>/<key>`), every
/// request signed with SigV4 and the upload's short-lived credentials.
struct S3MultipartClient: Sendable {
    /// Seconds a request may stay idle.
    static let timeout: TimeInterval = 120

    /// Where the requests go and what they are signed with.
    let target: MultipartTarget
    /// Seconds to add to the device's clock for the server's (from the SDK's handshake).
    let clockOffset: Int

    /// `POST ?uploads`: begins an upload and returns its id.
    func initiate(contentType: String) async throws -> String {
        let (body, _) = try await send("POST", query: [("uploads", "")], headers: [("Content-Type", contentType)])
        guard let uploadId = S3Messages.uploadId(in: body) else {
            throw S3Failure(status: 200, code: "", message: "the answer to initiate named no UploadId")
        }
        return uploadId
    }

    /// `PUT ?partNumber=N&uploadId=U`: sends one part and returns its ETag.
    func uploadPart(uploadId: String, number: Int, body: Data) async throws -> String {
        let (_, response) = try await send(
            "PUT", query: [("partNumber", String(number)), ("uploadId", uploadId)], body: body)
        guard let etag = response.value(forHTTPHeaderField: "ETag"), !etag.isEmpty else {
            throw S3Failure(status: response.statusCode, code: "", message: "the part's answer had no ETag")
        }
        return etag
    }

    /// `GET ?uploadId=U`: every part the storage holds for the upload, following `IsTruncated` pages.
    func listParts(uploadId: String) async throws -> [UploadedPart] {
        var parts: [UploadedPart] = []
        var marker: String?
        while true {
            var query = [("uploadId", uploadId)]
            if let marker { query.append(("part-number-marker", marker)) }
            let (body, _) = try await send("GET", query: query)
            guard let page = S3Messages.parts(in: body) else {
                throw S3Failure(status: 200, code: "", message: "the list of parts could not be read")
            }
            parts += page.parts
            guard page.isTruncated, let next = page.nextMarker, next != marker else { break }
            marker = next
        }
        return parts
    }

    /// `POST ?uploadId=U` with the parts' numbers and ETags: assembles the object.
    func complete(uploadId: String, parts: [UploadedPart]) async throws {
        let body = S3Messages.completeBody(parts)
        let (answer, response) = try await send(
            "POST", query: [("uploadId", uploadId)], headers: [("Content-Type", "application/xml")], body: body)
        // S3 may answer 200 and still fail, with an `<Error>` body.
        if let failure = S3Messages.failure(in: answer, status: response.statusCode) { throw failure }
    }

    /// `DELETE ?uploadId=U`: abandons the upload and its parts.
    func abort(uploadId: String) async throws {
        _ = try await send("DELETE", query: [("uploadId", uploadId)])
    }

    // MARK: - Requests

    /// Sends one signed request to the target's object and returns the answer of a 2xx status.
    ///
    /// - Throws: ``S3Failure`` for any other status; `CancellationError`; the `URLError`.
    private func send(
        _ method: String, query: [(String, String)], headers: [(String, String)] = [], body: Data = Data()
    ) async throws -> (Data, HTTPURLResponse) {
        let endpoint = target.endpoint
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw URLError(.badURL) }
        let authority = endpoint.port.map { "\(host):\($0)" } ?? host
        var basePath = endpoint.path
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let unencodedPath = "\(basePath)/\(target.bucket)/\(target.key)"
        var signed = SigV4Request(
            method: method, unencodedPath: unencodedPath,
            query: query.map { (name: $0.0, value: $0.1) },
            headers: [(name: "host", value: authority)] + headers.map { (name: $0.0, value: $0.1) },
            payloadHash: SHA256.hex(body))
        if method == "GET" || method == "DELETE" { signed.payloadHash = SigV4Canonical.emptyPayloadHash }
        let signer = SigV4Signer(
            credentials: SigV4Credentials(
                accessKeyId: target.credentials.accessKeyId, secretAccessKey: target.credentials.secretAccessKey,
                sessionToken: target.credentials.sessionToken),
            region: target.region)
        let now = Int64(Date().timeIntervalSince1970) + Int64(clockOffset)
        var text = "\(scheme)://\(authority)\(signed.path)"
        let queryString = signed.queryString
        if !queryString.isEmpty { text += "?" + queryString }
        guard let url = URL(string: text) else { throw URLError(.badURL) }

        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in signer.sign(signed, secondsSince1970: now) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if !body.isEmpty || method == "PUT" || method == "POST" {
            request.httpBody = body
            request.setValue(String(body.count), forHTTPHeaderField: "Content-Length")
        }
        let (answer, response) = try await HTTPExchange.send(request)
        guard (200..<300).contains(response.statusCode) else {
            throw S3Messages.failure(in: answer, status: response.statusCode)
                ?? S3Failure(status: response.statusCode, code: "", message: "")
        }
        return (answer, response)
    }
}
