import BmobWire
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The auth endpoints' HTTP calls: `POST` a JSON object, read a JSON object back.
enum BirdAuthRequests {
    /// The largest answer read from an auth endpoint.
    static let maximumResponseBytes = 64 * 1024

    /// Asks `endpoint` to sign `channel` for `connectionId`: sends `{"connection_id", "channel_name"}`, reads
    /// `{"auth", "member_data"?}` (`channel_data` is accepted for `member_data`).
    static func channel(
        _ endpoint: URL, headers: [String: String], connectionId: String, channel: String,
        environment: BirdRealtimeEnvironment
    ) async throws(BirdRealtimeError) -> BirdAuthorization {
        let answer = try await post(
            endpoint, headers: headers,
            body: ["connection_id": .string(connectionId), "channel_name": .string(channel)], environment: environment)
        guard case .string(let auth)? = answer["auth"], !auth.isEmpty else {
            throw BirdRealtimeError(message: "the auth endpoint's answer has no auth string")
        }
        let memberData = answer["member_data"]?.stringValue ?? answer["channel_data"]?.stringValue
        return BirdAuthorization(auth: auth, memberData: memberData)
    }

    /// Asks `endpoint` to sign a signin for `connectionId`: sends `{"connection_id"}`, reads `{"auth", "user_data"}`
    /// (`member_data` is accepted for `user_data`).
    static func member(
        _ endpoint: URL, headers: [String: String], connectionId: String, environment: BirdRealtimeEnvironment
    ) async throws(BirdRealtimeError) -> (auth: String, userData: String) {
        let answer = try await post(
            endpoint, headers: headers, body: ["connection_id": .string(connectionId)], environment: environment)
        guard case .string(let auth)? = answer["auth"], !auth.isEmpty,
            let userData = answer["user_data"]?.stringValue ?? answer["member_data"]?.stringValue
        else {
            throw BirdRealtimeError(message: "the member endpoint's answer needs auth and user_data strings")
        }
        return (auth, userData)
    }

    private static func post(
        _ endpoint: URL, headers: [String: String], body: JSONValue, environment: BirdRealtimeEnvironment
    ) async throws(BirdRealtimeError) -> [String: JSONValue] {
        var request = URLRequest(url: endpoint, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(body.jsonBytes)
        let data: Data
        let status: Int
        do {
            (data, status) = try await environment.perform(environment.authRequest(request))
        } catch {
            throw BirdRealtimeError(message: "the auth request failed: \(error.localizedDescription)")
        }
        guard (200..<300).contains(status) else {
            throw BirdRealtimeError(message: "the auth endpoint answered HTTP \(status)", status: status)
        }
        guard data.count <= maximumResponseBytes, case .object(let members)? = try? JSONParser.parse(data) else {
            throw BirdRealtimeError(message: "the auth endpoint's answer is not a JSON object", status: status)
        }
        return members
    }
}
