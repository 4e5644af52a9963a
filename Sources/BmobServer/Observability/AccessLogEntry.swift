/// One answered request, as the access log writes it.
package struct AccessLogEntry: Sendable {
    /// Milliseconds since 1970 when the response was ready.
    package var time: Int64
    package var requestId: String
    /// The app the request was for, once its keys were checked; `nil` for requests without one.
    package var applicationId: String?
    package var method: String
    /// The route's pattern (`/1/classes/:className`), never the path itself: no client data, bounded variety.
    /// `-` for requests no route matched or that the HTTP layer refused.
    package var route: String
    package var status: Int
    /// Response body bytes (a streamed body's declared length; 0 when unknown).
    package var bytes: Int
    /// From the request's arrival until its response was ready.
    package var nanoseconds: UInt64
    /// How the caller identified itself: `master`, `session` (a session token), `key` (app keys only), `none`.
    package var caller: String

    package init(
        time: Int64, requestId: String, applicationId: String?, method: String, route: String, status: Int, bytes: Int,
        nanoseconds: UInt64, caller: String
    ) {
        self.time = time
        self.requestId = requestId
        self.applicationId = applicationId
        self.method = method
        self.route = route
        self.status = status
        self.bytes = bytes
        self.nanoseconds = nanoseconds
        self.caller = caller
    }
}
