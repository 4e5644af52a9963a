import BmobHTTP
import BmobWire

/// REST `POST /1/batch`: up to 50 object requests run in order, each answered `{"success":…}` or
/// `{"error":{"code","error"}}` in a JSON array. Elements are ``BatchItem``s in the REST shape, run as the
/// operations they are (a `_Role` create is the role service's, as anywhere else).
package enum BatchRoutes {
    /// Adds `POST /1/batch`.
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.post, "/1/batch", runner: runner) { request, _ in
            let body = try request.jsonObjectBody()
            do throws(BmobRequestError) {
                return .batch(try BatchItem.decodeList(body["requests"], allowNativeShape: false))
            } catch {
                throw BmobAPIError(request: error)
            }
        }
    }
}
