package import BmobWire
package import Foundation
#if canImport(FoundationNetworking)
package import FoundationNetworking
#endif

/// Sends native `/8/` requests: JSON sealed in the AES envelope, POSTed with the protocol's headers.
package struct NativeTransport: Sendable {
    /// Seconds a request may take.
    package var timeout: TimeInterval = 30

    package init() {}

    /// One exchange: POSTs `plaintext` sealed with `key` to `<domain>/8/<route>` and returns the raw answer.
    package func post(
        domain: URL, route: String, plaintext: JSONValue, key: [UInt8], userAgent: String,
        headers: [String: String]
    ) async throws(BmobError) -> (body: Data, response: HTTPURLResponse) {
        let url = domain.appendingPathComponent("8").appendingPathComponent(route)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("text/html;charset=utf-8", forHTTPHeaderField: "Content-Type")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(NativeEnvelope.seal(plaintext, key: key))
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch let error as URLError where error.code == .timedOut {
            throw .timeout
        } catch {
            throw .networkError(underlying: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .networkError(underlying: URLError(.badServerResponse))
        }
        return (data, http)
    }

    /// Opens an answer sealed with `key` and returns its `data`, or throws its Bmob error.
    package static func unwrap(_ body: Data, status: Int, key: [UInt8]) throws(BmobError) -> JSONValue {
        let members: [String: JSONValue]
        do {
            members = try NativeEnvelope.openJSON(body, key: key)
        } catch {
            // A proxy or a server that is not Bmob answers in plain text.
            if status != 200 {
                throw .serverError(code: status, message: String(decoding: body.prefix(200), as: UTF8.self))
            }
            throw .jsonParsingFailed
        }
        if let result = members["result"]?.objectValue, let code = result["code"]?.int64Value, code != 200 {
            throw BmobError.server(code: Int(code), message: result["message"]?.stringValue ?? "")
        }
        guard let data = members["data"] else { throw .jsonParsingFailed }
        return data
    }
}
