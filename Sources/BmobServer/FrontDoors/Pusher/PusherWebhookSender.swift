import BmobWire
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends an app's channel webhooks as Pusher does: `POST <webhookURL>` with `{"time_ms", "events": [event]}`,
/// `X-Pusher-Key` and `X-Pusher-Signature` (lowercase hex HMAC-SHA256 of the body with the channel secret), so
/// Pusher's server libraries (`validate_webhook`) accept them. Detached: a slow or failing receiver never holds a
/// connection; a call that fails or answers a non-2xx status is tried twice more (after 0.5 s and 2 s). At most
/// `concurrency` calls run at once across the server.
final class PusherWebhookSender: Sendable {
    private let session = OutboundSession.make(requestTimeout: 10, resourceTimeout: 10)
    private let limiter: WebhookLimiter
    private let clock: ServerClock
    private let logger: Logger

    init(concurrency: Int, clock: ServerClock, logger: Logger) {
        limiter = WebhookLimiter(limit: concurrency)
        self.clock = clock
        self.logger = logger
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `event` (`{"name": "channel_occupied", "channel": …}`, …) to the app's webhook, if it has one.
    func send(_ event: JSONValue, channels: AppChannels?) {
        guard let channels, let address = channels.webhookURL, let url = URL(string: address) else { return }
        let body = JSONValue.object(["time_ms": .int(clock.nowMilliseconds()), "events": [event]]).jsonBytes
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(channels.key, forHTTPHeaderField: "X-Pusher-Key")
        request.setValue(PusherSignatures.webhookSignature(secret: channels.secret, body: body), forHTTPHeaderField: "X-Pusher-Signature")
        let finalRequest = request
        Task.detached { [self] in
            for (attempt, pause) in [0, 500, 2000].enumerated() {
                if pause > 0 { try? await Task.sleep(for: .milliseconds(pause)) }
                await limiter.acquire()
                let status = try? await (session.data(for: finalRequest).1 as? HTTPURLResponse)?.statusCode
                await limiter.release()
                if let status, (200..<300).contains(status) { return }
                if attempt == 2 { logger.error("channels: the webhook \(address) failed three times (last: \(status.map(String.init) ?? "no answer"))") }
            }
        }
    }
}
