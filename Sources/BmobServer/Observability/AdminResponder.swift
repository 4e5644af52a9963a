import BmobHTTP
import BmobWire

/// The admin port's responder (the `adminPort` setting): `GET /metrics` without a token and `GET /health`, nothing
/// else. It listens on `adminHost` (127.0.0.1 by default), so that only this machine, or a network the operator
/// chose, can read the server's metrics.
struct AdminResponder: HTTPResponder {
    let metrics: ServerMetrics

    func respond(to request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return BmobAPIError.body(status: .methodNotAllowed, code: 405, message: "method \(request.method) not allowed")
        }
        switch request.path {
        case "/metrics": return MetricsRoutes.exposition(metrics)
        case "/health": return .json(["status": "ok"])
        default: return BmobAPIError.body(status: .notFound, code: 404, message: "the admin port serves /metrics and /health")
        }
    }

    func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        BmobAPIError.body(status: status, code: status.code, message: message)
    }
}
