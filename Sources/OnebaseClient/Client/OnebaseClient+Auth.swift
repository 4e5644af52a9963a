import BmobWire
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Auth: the built-in password sign-in over HTTP, and the token every socket sends.
extension OnebaseClient {
    /// The largest HTTP answer read.
    static let maximumResponseBytes = 1 << 20

    /// Signs in (or up) with an email and a password over HTTP (`POST <url>/api/auth/password`); a token that comes
    /// back is stored and sent on every (re)connect from now on.
    ///
    /// - Parameters:
    ///   - email: the account's email.
    ///   - password: its password; with `flow: "email-verification"`, the code that was emailed.
    ///   - flow: `"signIn"` (the default), `"signUp"` (creates the account and emails a code), or
    ///     `"email-verification"` (finishes a sign-up with the code).
    /// - Returns: the session token, or `nil` when a code was emailed instead (finish with the
    ///   `"email-verification"` flow).
    /// - Throws: ``OnebaseError`` with the server's message and `data` `{"code": …}` (wrong password, unknown email,
    ///   bad code), or a network error's message.
    @discardableResult
    public func signInPassword(email: String, password: String, flow: String = "signIn") async throws -> String? {
        var body: [String: JSONValue] = ["email": .string(email), "password": .string(password), "flow": .string(flow)]
        if flow == "email-verification" { body["code"] = .string(password) }
        let answer = try await post("auth/password", body: .object(body), token: nil)
        guard case .string(let token)? = answer["token"], !token.isEmpty else { return nil }
        setToken(token)
        return token
    }

    /// Signs out: asks the server to end the session (best effort), forgets the token, clears the offline cache,
    /// and reconnects signed out. ``onAuthChange`` hears `false` if the token had been accepted.
    ///
    /// - Throws: nothing today; kept throwing so that a stricter server check can be added.
    public func signOut() async throws {
        let token = lock.withLock { machine.currentToken }
        if let token { _ = try? await post("auth/signOut", body: [:], token: token) }
        tokenStore.deleteToken()
        handle { $0.signedOut() }
    }

    /// Uses `token` (an external provider's, or one from your own sign-in) from now on: stores it and reconnects
    /// with it (calls in flight on the old socket fail with "connection lost"; queued ones wait for the new user's
    /// confirmation). ``onAuthChange`` hears `true` once the server accepts it, `false` if it refuses it.
    ///
    /// - Parameter token: the token; `nil` (or empty) clears it, like a sign-out without the server call.
    public func setToken(_ token: String?) {
        let token = token.flatMap { $0.isEmpty ? nil : $0 }
        if let token {
            // A store that cannot keep it still leaves the token in use for this run.
            try? tokenStore.saveToken(token)
        } else {
            tokenStore.deleteToken()
        }
        handle { $0.setToken(token) }
    }

    /// `POST <url>/api/<route>` with a JSON body; the answer's members.
    private func post(
        _ route: String, body: JSONValue, token: String?
    ) async throws(OnebaseError) -> [String: JSONValue] {
        let endpoint: OnebaseEndpoint
        switch self.endpoint {
        case .success(let value): endpoint = value
        case .failure(let error): throw error
        }
        var request = URLRequest(
            url: endpoint.http(route), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(body.jsonBytes)
        let data: Data
        let status: Int
        do {
            (data, status) = try await environment.perform(request)
        } catch {
            throw OnebaseError(message: "the request failed: \(error.localizedDescription)")
        }
        let answer = data.count <= Self.maximumResponseBytes ? try? JSONParser.parse(data) : nil
        guard (200..<300).contains(status) else {
            let message = answer?["error"]?.stringValue ?? "the server answered HTTP \(status)"
            var details = answer?.objectValue ?? [:]
            details["status"] = .int(Int64(status))
            throw OnebaseError(message: message, data: OnebaseValue(json: .object(details)))
        }
        guard case .object(let members)? = answer else {
            throw OnebaseError(message: "the server's answer is not a JSON object")
        }
        return members
    }
}
