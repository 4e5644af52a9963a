package import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads a provider's JSON Web Key Set: over HTTPS with `URLSession` in production, from memory in tests.
///
/// A collaborator as a value, like ``ServerClock``: ``urlSession`` is the live fetcher, and tests pass a
/// closure that answers, counts or fails.
package struct OIDCKeySetFetcher: Sendable {
    /// Fetches the document at a URL and returns its body.
    package var fetch: @Sendable (URL) async throws -> [UInt8]

    /// A fetcher that runs `fetch`.
    ///
    /// - Parameter fetch: Returns the body at the URL, or throws when it cannot be had.
    package init(fetch: @escaping @Sendable (URL) async throws -> [UInt8]) {
        self.fetch = fetch
    }

    /// How long a fetch may take before it fails, in seconds.
    package static let timeoutSeconds: TimeInterval = 10
    /// Larger answers are refused; real key sets are a few kilobytes.
    package static let maximumByteCount = 1 << 20

    /// Fetches with `URLSession.shared` (FoundationNetworking on Linux): a GET that bypasses local caches,
    /// times out after ``timeoutSeconds``, and accepts only HTTP 200 of at most ``maximumByteCount`` bytes.
    package static let urlSession = OIDCKeySetFetcher { url in
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            throw JSONWebTokenError("the key set URL did not answer HTTP 200")
        }
        guard data.count <= maximumByteCount else {
            throw JSONWebTokenError("the key set is larger than \(maximumByteCount) bytes")
        }
        return Array(data)
    }
}
