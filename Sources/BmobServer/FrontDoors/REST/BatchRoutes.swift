import BmobHTTP
import BmobWire

/// REST `POST /1/batch`: up to 50 object requests run in order, each answered `{"success":…}` or
/// `{"error":{"code","error"}}` in a JSON array. Elements are ``BatchItem``s in the REST shape; the work is
/// ``BatchService``'s.
package enum BatchRoutes {
    /// Adds `POST /1/batch`.
    package static func register(in router: inout BmobRouter, batch: BatchService) {
        router.app(.post, "/1/batch") { request, context in
            let body = try request.jsonObjectBody()
            let items: [BatchItem]
            do throws(BmobRequestError) {
                items = try BatchItem.decodeList(body["requests"], allowNativeShape: false)
            } catch {
                throw BmobAPIError(request: error)
            }
            return .json(.array(await batch.run(items, context: context)))
        }
    }
}
