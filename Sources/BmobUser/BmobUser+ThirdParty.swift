import BmobCore
import BmobData
import BmobWire
import Foundation

extension BmobUser {
    /// Logs in with a third-party account, creating a user the first time; the user becomes ``current``.
    ///
    /// ```swift
    /// let authData: [String: Any] = ["openid": "…", "access_token": "…", "expires_in": 7200]
    /// let user = try await BmobUser.login(platform: .wechat, authData: authData)
    /// ```
    ///
    /// - Throws: ``BmobError/serverError(code:message:)`` 208 when the server does not accept the data (the
    ///   platform is not configured, or the token is not genuine or has expired).
    public static func login(platform: BmobAuthPlatform, authData: [String: Any]) async throws -> BmobUser {
        let data = try BmobValueCoding.encode(authData)
        let answer = try await BmobClient.shared.call(
            "signup", ["c": .string(userClassName), "data": ["authData": .object([platform.key: data])]])
        return try loggedIn(answer)
    }

    /// Links a third-party account to this user (its own session is used).
    ///
    /// - Throws: ``BmobError/serverError(code:message:)`` 208 when the account is linked to another user or not
    ///   genuine.
    public func link(platform: BmobAuthPlatform, authData: [String: Any]) async throws {
        try await changeAuthData(platform, try BmobValueCoding.encode(authData))
    }

    /// Unlinks a third-party account from this user.
    public func unlink(platform: BmobAuthPlatform) async throws {
        try await changeAuthData(platform, .null)
    }

    private func changeAuthData(_ platform: BmobAuthPlatform, _ data: JSONValue) async throws {
        guard let objectId else { throw BmobError.invalidParameter(reason: "the user has not signed up") }
        var request: [String: JSONValue] = [
            "c": .string(Self.userClassName), "objectId": .string(objectId),
            "data": ["authData": .object([platform.key: data])],
        ]
        if let token = sessionToken { request["sessionToken"] = .string(token) }
        _ = try await BmobClient.shared.call("update", request)
        lock.withLock {
            var authData = fields["authData"]?.objectValue ?? [:]
            authData[platform.key] = data.isNull ? nil : data
            fields["authData"] = .object(authData)
        }
    }
}
