import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` of the server's own outbound calls (the S3 provider, webhooks): ephemeral, without caches or
/// cookies, every request held to `requestTimeout` seconds without an answer and `resourceTimeout` in all.
enum OutboundSession {
    static func make(requestTimeout: Double, resourceTimeout: Double) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        return URLSession(configuration: configuration)
    }
}
