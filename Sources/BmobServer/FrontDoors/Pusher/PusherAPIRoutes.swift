import BmobHTTP
import BmobServerCodecs
import BmobWire

/// The channels HTTP API, signed with the app's channel key and secret as Pusher's server libraries sign it:
/// `POST /apps/{id}/events` and `/batch_events`, `GET /apps/{id}/channels`, `/channels/{name}` and
/// `/channels/{name}/users`, `POST /apps/{id}/users/{user}/terminate_connections` (also without the `/apps/{id}`
/// prefix, the app then named by `auth_key`). Errors keep Bmob's `{"code","error"}` shape with the HTTP status
/// as the code, which Pusher's libraries read by status.
package enum PusherAPIRoutes {
    /// Channels one event may name.
    static let maximumChannels = 100
    /// Events one batch may hold.
    static let maximumBatch = 10
    /// The largest event data, in bytes.
    static let maximumDataBytes = 10 * 1024

    package static func register(in router: inout BmobRouter, gateway: PusherGateway) {
        let bodyLimit = 128 * 1024
        router.open(.post, "/apps/:id/events", bodyLimit: bodyLimit) { request in
            try await answer {
                let applicationId = try authenticate(request, gateway: gateway)
                let body = try object(request.http.body)
                let channels: [JSONValue]
                if let list = body["channels"]?.arrayValue {
                    channels = list
                } else if let one = body["channel"] {
                    channels = [one]
                } else {
                    throw APIError(400, "channels (or channel) is required")
                }
                guard (1...maximumChannels).contains(channels.count) else {
                    throw APIError(400, "an event names 1 to \(maximumChannels) channels")
                }
                let event = try Event(body, channels: channels)
                try await publish([event], applicationId: applicationId, gateway: gateway)
                return [:]
            }
        }
        router.open(.post, "/apps/:id/batch_events", bodyLimit: bodyLimit) { request in
            try await answer {
                let applicationId = try authenticate(request, gateway: gateway)
                guard let batch = try object(request.http.body)["batch"]?.arrayValue else {
                    throw APIError(400, "batch must be an array of events")
                }
                guard batch.count <= maximumBatch else { throw APIError(400, "a batch holds at most \(maximumBatch) events") }
                // Every event is checked before any is published.
                let events = try batch.map { item throws(APIError) -> Event in
                    guard case .object(let members) = item, let channel = members["channel"] else {
                        throw APIError(400, "each batch event needs a channel")
                    }
                    return try Event(members, channels: [channel])
                }
                try await publish(events, applicationId: applicationId, gateway: gateway)
                return [:]
            }
        }
        router.open(.get, "/apps/:id/channels") { request in
            try await answer {
                let applicationId = try authenticate(request, gateway: gateway)
                let prefix = request.http.query("filter_by_prefix") ?? ""
                let info = Set((request.http.query("info") ?? "").split(separator: ",").map(String.init))
                if info.contains("user_count"), !prefix.hasPrefix(PusherChannelName.presencePrefix) {
                    throw APIError(400, "info=user_count needs filter_by_prefix=presence-")
                }
                var channels: [String: JSONValue] = [:]
                for (name, users) in try await unavailable({ try await gateway.bus.occupiedChannels(of: applicationId) })
                where name.hasPrefix(prefix) {
                    channels[name] = info.contains("user_count") ? ["user_count": .int(Int64(users ?? 0))] : [:]
                }
                return ["channels": .object(channels)]
            }
        }
        router.open(.get, "/apps/:id/channels/:name") { request in
            try await answer {
                let applicationId = try authenticate(request, gateway: gateway)
                let channel = try channelName(request.parameter("name"))
                let id = PusherChannelTable.ChannelID(applicationId: applicationId, channel: channel.rawValue)
                let info = Set((request.http.query("info") ?? "").split(separator: ",").map(String.init))
                if info.contains("user_count"), channel.kind != .presence {
                    throw APIError(400, "user_count is for presence channels")
                }
                let (subscriptions, users) = try await unavailable { try await gateway.bus.counts(id) }
                var answer: [String: JSONValue] = ["occupied": .bool(subscriptions > 0)]
                if info.contains("user_count") { answer["user_count"] = .int(Int64(users)) }
                if info.contains("subscription_count") { answer["subscription_count"] = .int(Int64(subscriptions)) }
                return .object(answer)
            }
        }
        router.open(.get, "/apps/:id/channels/:name/users") { request in
            try await answer {
                let applicationId = try authenticate(request, gateway: gateway)
                let channel = try channelName(request.parameter("name"))
                guard channel.kind == .presence else { throw APIError(400, "users are listed for presence channels only") }
                let ids = try await unavailable {
                    try await gateway.bus.memberIds(.init(applicationId: applicationId, channel: channel.rawValue))
                }
                return ["users": .array(ids.map { ["id": .string($0)] })]
            }
        }
        for pattern in ["/apps/:id/users/:user/terminate_connections", "/users/:user/terminate_connections"] {
            router.open(.post, pattern, bodyLimit: bodyLimit) { request in
                try await answer {
                    let applicationId = try authenticate(request, gateway: gateway)
                    let user = request.parameter("user")
                    guard !user.isEmpty, user.utf8.count <= 200 else { throw APIError(400, "invalid user id") }
                    try await unavailable { try await gateway.broadcast(applicationId, [.terminate(userId: user)]) }
                    return [:]
                }
            }
        }
    }

    /// An HTTP API refusal: its status, echoed as the code.
    struct APIError: Error {
        var status: Int
        var message: String
        init(_ status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    /// One event to publish, checked.
    private struct Event {
        var name: String
        var data: String
        var channels: [PusherChannelName]
        var excluded: PusherSocketId?

        init(_ body: [String: JSONValue], channels names: [JSONValue]) throws(APIError) {
            guard let name = body["name"]?.stringValue, !name.isEmpty, name.utf8.count <= PusherFrame.maximumEventNameLength,
                !PusherEventPrefix.isReserved(name)
            else { throw APIError(400, "name must be 1 to \(PusherFrame.maximumEventNameLength) characters, not a protocol event") }
            self.name = name
            switch body["data"] {
            case .string(let text)?: data = text
            case nil, .null?: data = ""
            case let value?: data = value.jsonString
            }
            guard data.utf8.count <= PusherAPIRoutes.maximumDataBytes else {
                throw APIError(413, "data is over \(PusherAPIRoutes.maximumDataBytes) bytes")
            }
            channels = try names.map { value throws(APIError) in
                guard let text = value.stringValue else { throw APIError(400, "channel names are strings") }
                return try PusherAPIRoutes.channelName(text)
            }
            if let socket = body["socket_id"]?.stringValue {
                do { excluded = try PusherSocketId(validating: socket) } catch { throw APIError(400, "invalid socket_id") }
            }
        }

        /// The event as a message for every node.
        var message: PusherClusterMessage {
            .event(channels: channels, name: name, data: data, excluded: excluded)
        }
    }

    /// Delivers checked events to this node's sockets and hands them to the other nodes.
    private static func publish(_ events: [Event], applicationId: String, gateway: PusherGateway) async throws(APIError) {
        try await unavailable { try await gateway.broadcast(applicationId, events.map(\.message)) }
    }

    /// Runs `body`; a failure of the store behind the bus (other nodes out of reach) is a 503.
    private static func unavailable<T>(_ body: () async throws -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            throw APIError(503, "the channel state of the other server nodes cannot be reached now")
        }
    }

    /// The app the request's path names, once its signature checks out.
    private static func authenticate(_ request: BmobRequest, gateway: PusherGateway) throws(APIError) -> String {
        let appId = request.parameters["id"]
        let query = request.http.queryItems
        let key = query.first { $0.name == "auth_key" }?.value
        let runtime = gateway.apps.openedRuntime { channels in
            if let appId { return channels.appId == appId }
            return channels.key == key
        }
        guard let runtime, let credentials = runtime.app.channels else { throw APIError(404, "unknown app") }
        do {
            try PusherSignatures.verifyAPIRequest(
                method: request.http.method.rawValue, path: String(request.http.path), query: query, body: request.http.body,
                now: request.server.clock.nowSeconds,
                secret: { $0 == credentials.key ? credentials.secret : nil })
        } catch {
            throw APIError(error.httpStatus, error.message)
        }
        return runtime.app.applicationId
    }

    private static func channelName(_ text: String) throws(APIError) -> PusherChannelName {
        do { return try PusherChannelName(validating: text) } catch { throw APIError(400, error.message) }
    }

    private static func object(_ body: [UInt8]) throws(APIError) -> [String: JSONValue] {
        guard case .object(let members)? = try? JSONParser.parse(body) else { throw APIError(400, "the body must be a JSON object") }
        return members
    }

    /// Runs `body` and answers its JSON, or its refusal.
    private static func answer(_ body: () async throws -> JSONValue) async throws -> HTTPResponse {
        do {
            return .json(try await body())
        } catch let error as APIError {
            return BmobAPIError.body(status: HTTPStatus(code: error.status), code: error.status, message: error.message)
        }
    }
}
