package import BmobStore
package import BmobWire

/// Per-client-address and per-app limits on one kind of request (password signups, SMS codes, emailed links),
/// counted as rate events in the app's store so that they hold across restarts and across nodes sharing it.
///
/// Only admitted requests count: a request refused here, or by an earlier check, costs the client nothing.
package struct RequestQuota: Sendable, Equatable {
    /// The rate-event kind the requests are counted under (`<kind>Client` per address, `<kind>App` per app).
    package var kind: String
    /// Requests per client address; `nil` for none.
    package var perClient: RateLimit?
    /// Requests per app; `nil` for none.
    package var perApp: RateLimit?

    /// A quota counting under `kind`.
    package init(kind: String, perClient: RateLimit?, perApp: RateLimit?) {
        self.kind = kind
        self.perClient = perClient
        self.perApp = perApp
    }

    /// Checks both limits and, when both allow one more request, counts it. Call it in the write that carries
    /// the request out, after the request's own checks, so that a refused request is not counted.
    ///
    /// - Parameters:
    ///   - client: the client's IP address; without one only the per-app limit applies.
    ///   - now: the request's time.
    ///   - code: the error code of a refusal (10010 for SMS codes, 10076 otherwise).
    ///   - what: the requests in words, plural ("SMS codes"), for the message.
    /// - Throws: ``BmobAPIError`` `code` with the time left when a limit refuses it.
    package func admit(
        client: String?, now: Int64, transaction: any StoreWriteTransaction, code: BmobErrorCode, what: String
    ) throws {
        let checks: [(String, String?, RateLimit?, String)] = [
            (kind + "Client", client.map { "client:\($0)" }, perClient, "this client address"),
            (kind + "App", "app", perApp, "this app"),
        ]
        var admitted: [(String, String)] = []
        for (kind, subject, limit, who) in checks {
            guard let subject, let limit else { continue }
            let events = try transaction.rateEvents(kind: kind, subject: subject, since: now - limit.windowMilliseconds)
            if let wait = limit.wait(events: events, now: now) {
                throw BmobAPIError(
                    code,
                    "too many \(what) requested from \(who): at most \(limit.count) a \(limit.windowName); "
                        + "try again in \(RateLimit.describe(milliseconds: wait))")
            }
            admitted.append((kind, subject))
        }
        for (kind, subject) in admitted {
            try transaction.recordRateEvent(kind: kind, subject: subject, at: now)
        }
    }
}
