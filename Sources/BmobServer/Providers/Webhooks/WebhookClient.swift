import BmobCrypto
package import BmobWire
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls an app's webhooks: `POST <url>` with a JSON body, signed so the receiver knows the server sent it:
/// `X-Bmob-Webhook-Timestamp: <Unix seconds>` and `X-Bmob-Webhook-Signature: <lowercase hex HMAC-SHA256 keyed
/// with the secret's UTF-8 bytes, over "<timestamp>.<raw body>">` (receivers should refuse old timestamps).
///
/// Each call has a timeout, at most ``maximumAnswerBytes`` of answer are read, and at most `concurrency` calls
/// run at once across the server. The answer is `{"result": …}`, `{"error": {"code": n, "message": "…"}}`, or for
/// triggers `{"object": {…}}`, `{"where": {…}}`, `{"results": […]}`, or Bmob's data-hook `{"msg": "ok"}`.
package final class WebhookClient: Sendable {
    private let session: URLSession
    private let limiter: WebhookLimiter
    private let clock: ServerClock
    /// How long a call may take, in seconds.
    package let timeoutSeconds: Double
    /// The largest answer read.
    package static let maximumAnswerBytes = 1 << 20

    /// A client whose calls time out after `timeoutSeconds`, at most `concurrency` at once.
    package init(timeoutSeconds: Double, concurrency: Int, clock: ServerClock) {
        self.timeoutSeconds = timeoutSeconds
        self.clock = clock
        limiter = WebhookLimiter(limit: concurrency)
        session = OutboundSession.make(requestTimeout: timeoutSeconds, resourceTimeout: timeoutSeconds)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// What a webhook answered.
    package enum Answer: Sendable, Equatable {
        /// `{"result": v}` (or `{"object"|"where"|"results": v}` for triggers): the value.
        case value(String, JSONValue)
        /// `{"msg": "ok"}`, or an empty object: go on.
        case proceed
    }

    /// The signature of `body` sent at `timestamp`.
    package static func signature(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body))
    }

    /// Calls `url` with `payload`.
    ///
    /// - Throws: ``BmobAPIError`` with the code the receiver answered, or 310 when it cannot be reached, times out,
    ///   answers a non-2xx status, or answers something other than the shapes above (`what` names the webhook).
    package func call(_ url: String, payload: JSONValue, secret: String, what: String) async throws -> Answer {
        guard let target = URL(string: url) else { throw failure(what, "has no valid URL") }
        let body = payload.jsonBytes
        let timestamp = clock.nowSeconds
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(String(timestamp), forHTTPHeaderField: "X-Bmob-Webhook-Timestamp")
        request.setValue(
            Self.signature(secret: secret, timestamp: timestamp, body: body), forHTTPHeaderField: "X-Bmob-Webhook-Signature")
        await limiter.acquire()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
            await limiter.release()
        } catch {
            await limiter.release()
            throw failure(what, "did not answer (\(error.localizedDescription))")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard data.count <= Self.maximumAnswerBytes else { throw failure(what, "answered more than 1 MiB") }
        guard case .object(let answer)? = try? JSONParser.parse(Array(data)) else {
            throw failure(what, "answered something other than a JSON object (HTTP \(status))")
        }
        if case .object(let error)? = answer["error"] {
            let code = error["code"]?.int64Value.flatMap { Int(exactly: $0) } ?? BmobErrorCode.cloudCodeError.rawValue
            let message = error["message"]?.stringValue ?? error["error"]?.stringValue ?? "refused by the webhook"
            throw BmobAPIError(BmobErrorCode(code), String(message.prefix(500)))
        }
        guard (200..<300).contains(status) else { throw failure(what, "answered HTTP \(status)") }
        for member in ["result", "object", "where", "results"] {
            if let value = answer[member] { return .value(member, value) }
        }
        return .proceed
    }

    private func failure(_ what: String, _ problem: String) -> BmobAPIError {
        BmobAPIError(.cloudCodeError, "the webhook of \(what) \(problem)")
    }
}
