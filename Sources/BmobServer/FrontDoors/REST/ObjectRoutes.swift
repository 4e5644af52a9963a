import BmobHTTP
import BmobWire

/// REST `/1/classes/<C>[/<id>]`: create, get, update, delete (find lives in ``QueryRoutes``). Every class goes
/// through the same ``OperationRunner`` as the other doors, so `_User` and `_Role` writes here follow their own
/// rules (a create of `_User` is a signup).
package enum ObjectRoutes {
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.post, "/1/classes/:className", runner: runner) { request, _ in
            // No body at all is a client mistake, not a request for an empty object (`{}` asks for one).
            guard !request.http.body.isEmpty else {
                throw BmobAPIError(.invalidJSON, "the body must be a JSON object; send {} for an object without fields")
            }
            return .create(className: request.parameter("className"), body: try request.jsonObjectBody())
        }
        router.operation(.get, "/1/classes/:className/:objectId", runner: runner) { request, _ in
            try getOperation(request, className: request.parameter("className"))
        }
        router.operation(.put, "/1/classes/:className/:objectId", runner: runner) { request, _ in
            .update(
                className: request.parameter("className"), objectId: request.parameter("objectId"),
                body: try request.jsonObjectBody())
        }
        router.operation(.delete, "/1/classes/:className/:objectId", runner: runner) { request, _ in
            .delete(className: request.parameter("className"), objectId: request.parameter("objectId"))
        }
    }

    /// A get of `:objectId` in `className`, with `include` and `keys` from the query string.
    package static func getOperation(_ request: BmobRequest, className: String) throws -> Operation {
        .get(
            className: className, objectId: request.parameter("objectId"),
            include: request.http.query("include").map(commaList) ?? [], keys: request.http.query("keys").map(commaList))
    }

    /// `a, b ,c` → `["a", "b", "c"]` (Bmob's JS docs put spaces after commas).
    package static func commaList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }
}
