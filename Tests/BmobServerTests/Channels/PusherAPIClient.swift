import BmobServer
import BmobTesting
import BmobWire
import Foundation

/// Signed calls to the channels HTTP API, as Pusher's server libraries sign them.
struct PusherAPIClient {
    let server: TestServer
    var appId = TestServer.channels.appId
    var key = TestServer.channels.key
    var secret = TestServer.channels.secret

    /// Sends `method path` with `body`, signed at `timestamp` (now by default); `tamper` changes the query after
    /// signing.
    func call(
        _ method: String, _ path: String, body: JSONValue? = nil, query extra: [(String, String)] = [],
        timestamp: Int64 = Int64(Date().timeIntervalSince1970), tamper: (inout [(name: String, value: String)]) -> Void = { _ in }
    ) async throws -> RawHTTPResponse {
        let bytes = body.map(\.jsonBytes) ?? []
        var query: [(name: String, value: String)] = extra.map { ($0.0, $0.1) } + [
            ("auth_key", key), ("auth_timestamp", String(timestamp)), ("auth_version", "1.0"),
            ("body_md5", PusherSignatures.bodyMD5(bytes)),
        ]
        query.append(("auth_signature", PusherSignatures.apiSignature(secret: secret, method: method, path: path, query: query)))
        tamper(&query)
        let target = path + "?" + query.map { "\($0.name)=\(queryEncoded($0.value))" }.joined(separator: "&")
        return try await server.request(
            method, target, headers: body == nil ? [] : [("Content-Type", "application/json")], body: body == nil ? nil : bytes)
    }

    /// Publishes `event` with `data` on `channels`.
    func trigger(_ channels: [String], _ event: String, _ data: String, socketId: String? = nil) async throws -> RawHTTPResponse {
        var body: [String: JSONValue] = [
            "name": .string(event), "data": .string(data), "channels": .array(channels.map { .string($0) }),
        ]
        if let socketId { body["socket_id"] = .string(socketId) }
        return try await call("POST", "/apps/\(appId)/events", body: .object(body))
    }
}
