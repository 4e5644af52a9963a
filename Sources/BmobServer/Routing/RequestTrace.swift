import BmobWire
import Synchronization

/// Who to blame in the log for a request the server failed: its request id and route.
///
/// The REST door (``BmobResponder``) binds one to ``current`` around every handler. Whatever answers a 5xx (the
/// responder itself, the native door's envelope, a failed batch element) calls ``report(_:route:)``: one
/// error-level log line with the request id, the route and the fault's safe description, and the client's
/// message gains `(request <id>)`; the responder then adds an `X-Request-Id` header to the response. The id
/// is the request's own `X-Request-Id` when that is a sane token (``isSaneRequestId(_:)``), else a random one
/// made the first time it is needed.
package final class RequestTrace: Sendable {
    /// The trace of the request the current task serves, if any.
    @TaskLocal package static var current: RequestTrace?

    /// `METHOD pattern` of the route (`GET /1/classes/:className`), free of client data.
    package let route: String
    private let logger: Logger
    private let supplied: String?
    /// The id made up for this request, once needed, and whether a 5xx was reported. A `Mutex` lives inside
    /// the trace, so a request costs one allocation for it.
    private let state = Mutex<(generated: String?, reported: Bool)>((nil, false))

    /// A trace for a request whose `X-Request-Id` header is `header`, served by `route`, logging to `logger`.
    package init(requestIdHeader header: String?, route: String, logger: Logger) {
        self.route = route
        self.logger = logger
        supplied = header.flatMap { Self.isSaneRequestId($0) ? $0 : nil }
    }

    /// The request id: the client's `X-Request-Id` when sane, else one made up once for this request.
    package var requestId: String {
        if let supplied { return supplied }
        return state.withLock { state in
            if let generated = state.generated { return generated }
            let made = Self.randomId()
            state.generated = made
            return made
        }
    }

    /// Whether a 5xx was reported for this request, so its response carries `X-Request-Id`.
    package var hasReported: Bool {
        state.withLock { $0.reported }
    }

    /// Logs a 5xx answer and returns it with the request id in its message; other errors pass unchanged.
    ///
    /// - Parameters:
    ///   - error: What the client is about to be told.
    ///   - route: The route to log when more precise than ``route`` (`POST /8/find`, `POST /1/batch #3`).
    package func report(_ error: BmobAPIError, route: String? = nil) -> BmobAPIError {
        guard error.isServerFault else { return error }
        let id = requestId
        state.withLock { $0.reported = true }
        let cause = Self.loggable(error.cause ?? error.message)
        logger.error(
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

    /// ``answer(for:route:)`` with the ``current`` trace, or without reporting when none is bound.
    package static func answer(for error: any Error, route: String? = nil) -> BmobAPIError {
        current?.answer(for: error, route: route) ?? bmobError(error)
    }

    /// `error` as a ``BmobAPIError``: itself, or a 500 whose cause is its description.
    private static func bmobError(_ error: any Error) -> BmobAPIError {
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

    /// 16 random hexadecimal digits.
    private static func randomId() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
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
