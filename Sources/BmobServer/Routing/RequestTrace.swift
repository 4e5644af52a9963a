package import BmobHTTP
import BmobWire
import Synchronization

/// Who to blame in the log for a request the server failed: its request id and route.
///
/// The REST door (``BmobResponder``) makes one per request and hands it to the handler in ``BmobRequest/trace``;
/// routes that need an app pass it on in ``AppContext/trace``. Whatever answers a 5xx (the responder itself,
/// the native door's envelope, a failed batch element) calls ``report(_:route:)``: one error-level log line
/// with the request id, the route and the fault's safe description, and the client's message gains
/// `(request <id>)`; the responder then adds an `X-Request-Id` header to the response. The id is the request's
/// own `X-Request-Id` when that is a sane token (``isSaneRequestId(_:)``), else a random one made the first
/// time it is needed.
///
/// Passed explicitly rather than bound as a task-local value, and lazy in everything but its allocation: most
/// requests never fail, and a task-local binding and the route text would cost every one of them.
package final class RequestTrace: Sendable {
    private let method: HTTPMethod
    private let pattern: String
    private let headers: HTTPHeaders
    private let server: ServerContext
    /// The made-up request id once needed (0 until then), and whether a 5xx was reported. Atomics live inside
    /// the trace, so a request costs one allocation for it.
    private let generatedId = Atomic<UInt64>(0)
    private let reported = Atomic<Bool>(false)

    /// A trace for `request`, served by the route `pattern`, logging to the server's logger.
    package init(_ request: HTTPRequest, pattern: String, server: ServerContext) {
        self.method = request.method
        self.pattern = pattern
        self.headers = request.headers
        self.server = server
    }

    /// `METHOD pattern` of the route (`GET /1/classes/:className`), free of client data.
    package var route: String { "\(method) \(pattern)" }

    /// The request id: the client's `X-Request-Id` when sane, else one made up once for this request.
    package var requestId: String {
        if let supplied = headers["X-Request-Id"], Self.isSaneRequestId(supplied) { return supplied }
        var id = generatedId.load(ordering: .relaxed)
        if id == 0 {
            // Two reports of one request racing here agree on whichever id was stored first.
            let made = UInt64.random(in: 1 ... .max)
            let (stored, original) = generatedId.compareExchange(expected: 0, desired: made, ordering: .relaxed)
            id = stored ? made : original
        }
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

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
