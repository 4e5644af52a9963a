import BmobHTTP
import BmobWire

/// The built-in channel authorization endpoint (``ChannelAuthService``), for realtime clients whose app has no
/// backend: `POST /1/channels/auth` with `socket_id` (or Bird's `connection_id`) and `channel_name`, and
/// `POST /1/channels/auth/member` with `socket_id`, each as a form (what Pusher's clients send) or a JSON object,
/// with the app's headers and the user's `X-Bmob-Session-Token`.
package enum ChannelAuthRoutes {
    package static func register(in router: inout BmobRouter, service: ChannelAuthService) {
        router.app(.post, "/1/channels/auth", bodyLimit: 16 * 1024) { request, context in
            let fields = try fields(request)
            guard let socketId = fields["socket_id"] ?? fields["connection_id"], let channel = fields["channel_name"] else {
                throw BmobAPIError(.missingParameter, "socket_id (or connection_id) and channel_name are required")
            }
            return .json(try await service.authorize(socketId: socketId, channelName: channel, context: context))
        }
        router.app(.post, "/1/channels/auth/member", bodyLimit: 16 * 1024) { request, context in
            let fields = try fields(request)
            guard let socketId = fields["socket_id"] ?? fields["connection_id"] else {
                throw BmobAPIError(.missingParameter, "socket_id (or connection_id) is required")
            }
            return .json(try await service.signIn(socketId: socketId, context: context))
        }
    }

    /// The string fields of a form or JSON body (other JSON types are left out).
    private static func fields(_ request: BmobRequest) throws(BmobAPIError) -> [String: String] {
        let contentType = request.http.headers["Content-Type"]?.lowercased() ?? ""
        if contentType.contains("x-www-form-urlencoded") {
            var fields: [String: String] = [:]
            for pair in QueryString.parse(String(decoding: request.http.body, as: UTF8.self)) where fields[pair.name] == nil {
                fields[pair.name] = pair.value
            }
            return fields
        }
        return (request.http.body.isEmpty ? [:] : try request.jsonObjectBody()).compactMapValues(\.stringValue)
    }
}
