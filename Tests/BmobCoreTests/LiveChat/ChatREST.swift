import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live chat test's REST calls: the one `Chat` record it creates, and its removal.
struct ChatREST {
    let settings: BmobEventChatSettings

    /// Creates a `Chat` record with `fields` and returns its objectId.
    func create(_ fields: [String: String]) async throws -> String {
        let (body, status) = try await send("POST", "/1/classes/Chat", body: try JSONSerialization.data(withJSONObject: fields))
        let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        guard status == 201, let objectId = json?["objectId"] as? String, !objectId.isEmpty else {
            throw ChatFailure("creating the Chat record answered \(status): \(String(decoding: body, as: UTF8.self))")
        }
        return objectId
    }

    /// Deletes the record; any answer but 200 is an error, so a failed cleanup fails the test.
    func delete(_ objectId: String) async throws {
        let (body, status) = try await send("DELETE", "/1/classes/Chat/\(objectId)", body: nil)
        guard status == 200 else {
            throw ChatFailure("deleting Chat/\(objectId) answered \(status): \(String(decoding: body, as: UTF8.self))")
        }
    }

    private func send(_ method: String, _ path: String, body: Data?) async throws -> (Data, Int) {
        guard let url = URL(string: settings.restDomain + path) else { throw ChatFailure("bad REST domain \(settings.restDomain)") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 20)
        request.httpMethod = method
        request.setValue(settings.appKey, forHTTPHeaderField: "X-Bmob-Application-Id")
        request.setValue(settings.restKey, forHTTPHeaderField: "X-Bmob-REST-API-Key")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}
