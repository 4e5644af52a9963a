package import BmobHTTP
import BmobWire
import Synchronization

/// A request's id and route, and who it was for: what the access log writes, and who to blame in the log for a
/// request the server failed.
///
/// The REST door (``BmobResponder``) makes one per request and hands it to the handler in ``BmobRequest/trace``;
/// routes that need an app pass it on in ``AppContext/trace``. Whatever answers a 5xx (the responder itself,
/// the native door's envelope, a failed batch element) calls ``report(_:route:)``: one error-level log line
/// with the request id, the route and the fault's safe description, and the client's message gains
/// `(request <id>)`. Every response carries the id in `X-Request-Id`: the request's own `X-Request-Id` when that is
/// a sane token (``isSaneRequestId(_:)``), else one from the server's ``RequestIdGenerator``.
///
/// Passed explicitly rather than bound as a task-local value: a task-local binding would cost every request.
package final class RequestTrace: @unchecked Sendable {
    // Invariant: `applicationId` and `callerKind` are written only by the task running the route's handler
    // (``noteApp(_:callerKind:)``, before the handler's work starts) and read by the responder after it awaited that
    // handler, so the await orders the write before the read; everything else is immutable or atomic.
    private let method: HTTPMethod
    private let pattern: String
    private let server: ServerContext
    /// The request id (the client's when sane, else a generated one).
    package let requestId: String
    private let reported = Atomic<Bool>(false)
    private var applicationId: String?
    private var callerKind = "none"

    /// A trace for `request`, served by the route `pattern`, logging to the server's logger.
    package init(_ request: HTTPRequest, pattern: String, server: ServerContext) {
        self.method = request.method
        self.pattern = pattern
        self.server = server
        requestId = Self.requestId(of: request, server: server)
    }

    /// The request's own `X-Request-Id` when it is sane, else a new one from the server's generator.
    package static func requestId(of request: HTTPRequest, server: ServerContext) -> String {
        if let supplied = request.headers["X-Request-Id"], isSaneRequestId(supplied) { return supplied }
        return server.requestIds.next()
    }

    /// `METHOD pattern` of the route (`GET /1/classes/:className`), free of client data.
    package var route: String { "\(method) \(pattern)" }

    /// Records the app whose keys the request passed and how its caller identified itself (`master`, `session`,
    /// `key`), for the access log. Call from the handler's task, before its work.
    package func noteApp(_ id: String, callerKind: String) {
        applicationId = id
        self.callerKind = callerKind
    }

    /// The app the request was for, once its keys were checked.
    package var app: String? { applicationId }

    /// How the caller identified itself; `none` for requests without an app.
    package var caller: String { callerKind }

    /// Whether a 5xx was reported for this request, so its response carries `X-Request-Id`.
    package var hasReported: Bool {
        reported.load(ordering: .relaxed)
    }

    /// Logs a 5xx answer and returns it with the request id in its message; other errors pass unchanged.
    ///
    /// - Parameters:
    ///   - error: What the client is about to be told.
    ///   - route: The route to log when more precise than ``route`` (`POST /8/find`, `POST /1/batch #3`).
    package func report(_ error: BmobAPIError, route: String? = nil) -> BmobAPIError {
        guard error.isServerFault else { return error }
        let id = requestId
        reported.store(true, ordering: .relaxed)
        let cause = Self.loggable(error.cause ?? error.message)
        server.logger.error(
            "request \(id) \(route ?? self.route) answered \(error.status.code) (code \(error.code.rawValue)): \(cause)",
            metadata: ["requestId": id])
        var answered = error
        answered.message = "\(error.message) (request \(id))"
        return answered
    }

    /// The Bmob error to answer for `error`: a ``BmobAPIError`` as it is, anything else as a 500 whose cause is
    /// its description; a 5xx is reported (``report(_:route:)``).
    package func answer(for error: any Error, route: String? = nil) -> BmobAPIError {
        report(Self.bmobError(error), route: route)
    }

    /// `error` as a ``BmobAPIError``: itself, or a 500 whose cause is its description. For callers without a
    /// trace (services called from tests).
    package static func bmobError(_ error: any Error) -> BmobAPIError {
        if let error = error as? BmobAPIError { return error }
        var failure = BmobAPIError(.internalError, "internal server error", status: .internalServerError)
        failure.cause = String(describing: error)
        return failure
    }

    /// Whether a client's `X-Request-Id` may be used as is: 1 to 64 letters, digits, `-`, `_`, `.` or `:`, so
    /// that it cannot forge log lines or headers.
    package static func isSaneRequestId(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                true
            default:
                false
            }
        }
    }

    /// `text` on one line and at most 500 characters, so that a fault's description cannot forge log lines.
    private static func loggable(_ text: String) -> String {
        var line = ""
        for (index, character) in text.enumerated() {
            if index == 500 {
                line += "…"
                break
            }
            let isControl = character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            line.append(isControl ? " " : character)
        }
        return line
    }
}
