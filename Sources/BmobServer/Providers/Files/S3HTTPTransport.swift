import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the S3 provider's signed requests with `URLSession` (FoundationNetworking on Linux, so HTTPS works
/// like any other client's): a session of its own without caches or cookies, every request with a timeout.
///
/// Requests are whole-body in both directions; the provider keeps each one small (uploads up to the small-file
/// limit, downloads in ranged pieces), since FoundationNetworking on Linux cannot pause a response midway.
package final class S3HTTPTransport: Sendable {
    private let session: URLSession
    /// How long a request may wait for its answer, in seconds.
    package let timeoutSeconds: Double

    /// A transport whose requests time out after `timeoutSeconds` without an answer, and after ten times as
    /// long in all.
    package init(timeoutSeconds: Double) {
        self.timeoutSeconds = timeoutSeconds
        session = OutboundSession.make(requestTimeout: timeoutSeconds, resourceTimeout: timeoutSeconds * 10)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `method` to `url` with `headers` and `body`, and returns the answer, whatever its status.
    ///
    /// - Throws: ``S3StorageError`` naming `service`, `operation` and `resource` when no answer came (refused,
    ///   timed out, cancelled).
    package func send(
        service: String = "S3", operation: String, resource: String, method: String, url: String,
        headers: [(name: String, value: String)],
        body: [UInt8] = []
    ) async throws -> S3HTTPAnswer {
        guard let target = URL(string: url) else {
            throw S3StorageError(
                service: service, operation: operation, resource: resource, message: "not a URL: \(url)")
        }
        var request = URLRequest(
            url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.httpMethod = method
        for header in headers where header.name.lowercased() != "host" {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        if method == "PUT" || method == "POST" {
            request.httpBody = Data(body)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            try Task.checkCancellation()
            // The scheme, host and port only: what was asked is in the operation and resource.
            let origin = "\(target.scheme ?? "")://\(target.host ?? "")" + (target.port.map { ":\($0)" } ?? "")
            let reason = (error as? URLError).map { "\($0.code)" } ?? String(describing: type(of: error))
            throw S3StorageError(
                service: service, operation: operation, resource: resource,
                message: "no answer from \(origin): \(reason) (\(error.localizedDescription))")
        }
        guard let http = response as? HTTPURLResponse else {
            throw S3StorageError(
                service: service, operation: operation, resource: resource, message: "the answer is not HTTP")
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return S3HTTPAnswer(status: http.statusCode, headers: fields, body: Array(data))
    }
}
