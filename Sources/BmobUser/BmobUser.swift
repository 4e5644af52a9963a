package import BmobCore
public import BmobData
package import BmobWire
import Foundation

/// A user of the app: a `BmobObject` of the class `_User` with sign-up, login and session handling.
///
/// ```swift
/// let user = BmobUser()
/// user.username = "testuser"
/// user.password = "password123"
/// try await user.signUp()
///
/// let same = try await BmobUser.login(username: "testuser", password: "password123")
/// ```
///
/// The logged-in user is ``current``; it is saved on the device (the Keychain on Apple platforms, a file only
/// its owner can read elsewhere) and brought back by ``restoreCurrent()``. Its session token goes with every
/// request while it is logged in.
open class BmobUser: BmobObject, @unchecked Sendable {
    /// The class of users.
    public static let userClassName = "_User"

    /// A new user, not signed up yet.
    public init() {
        super.init(className: Self.userClassName)
    }

    /// A user as the server returned it.
    package init(json: [String: JSONValue]) {
        super.init(className: Self.userClassName, json: json)
    }

    /// The login name.
    public var username: String? {
        get { string(forKey: "username") }
        set { self["username"] = newValue }
    }

    /// The password to sign up with. It is sent once and never kept after ``signUp()``; reading it returns the
    /// value not yet sent. Change a saved user's password with ``updatePassword(oldPassword:newPassword:)``.
    public var password: String? {
        get { lock.withLock { pending["password"]?.stringValue } }
        set { lock.withLock { pending["password"] = newValue.map(JSONValue.string) } }
    }

    /// The email address, which can also be used to log in.
    public var email: String? {
        get { string(forKey: "email") }
        set { self["email"] = newValue }
    }

    /// The mobile phone number, which can also be used to log in.
    public var mobilePhoneNumber: String? {
        get { string(forKey: "mobilePhoneNumber") }
        set { self["mobilePhoneNumber"] = newValue }
    }

    /// Whether the email address was verified (`false` when unknown).
    public var emailVerified: Bool {
        bool(forKey: "emailVerified") ?? false
    }

    /// The session token of a signed-up or logged-in user.
    public internal(set) var sessionToken: String? {
        get { lock.withLock { storedSessionToken } }
        set { lock.withLock { storedSessionToken = newValue } }
    }

    /// Guarded by `lock` like the rest of the object's state.
    private var storedSessionToken: String?

    // MARK: - Sign-up and login

    /// Creates the user on the server (username and password required) and logs it in: it becomes
    /// ``current``.
    ///
    /// - Throws: ``BmobError/serverError(code:message:)`` 202/203/209 when the username, email or phone number is
    ///   taken, 108 without username or password.
    public func signUp() async throws {
        let change = try pendingChange()
        guard case .object(let data)? = change.request["data"] else { throw BmobError.jsonParsingFailed }
        let answer = try await BmobClient.shared.call("signup", ["c": .string(Self.userClassName), "data": .object(data)])
        finishSave(change, answer: answer)
        lock.withLock { pending["password"] = nil }
        guard let token = answer["sessionToken"]?.stringValue else { throw BmobError.jsonParsingFailed }
        sessionToken = token
        apply(serverFields: answer.objectValue ?? [:])
        Self.setCurrent(self)
    }

    /// Logs in with a username and password; the user becomes ``current``.
    ///
    /// - Throws: ``BmobError/authenticationFailed`` for a wrong username or password.
    public static func login(username: String, password: String) async throws -> BmobUser {
        try await login(account: username, password: password)
    }

    /// Logs in with a username, email address or phone number and a password; the user becomes ``current``.
    ///
    /// - Throws: ``BmobError/authenticationFailed`` for a wrong account or password.
    public static func login(account: String, password: String) async throws -> BmobUser {
        guard !account.isEmpty, !password.isEmpty else {
            throw BmobError.invalidParameter(reason: "account and password are required")
        }
        let answer: JSONValue
        do {
            answer = try await BmobClient.shared.call(
                "login", ["c": .string(userClassName), "data": ["username": .string(account), "password": .string(password)]])
        } catch .objectNotFound {
            throw BmobError.authenticationFailed
        }
        return try loggedIn(answer)
    }

    /// Makes the user of a login answer ``current``.
    package static func loggedIn(_ answer: JSONValue) throws(BmobError) -> BmobUser {
        guard let members = answer.objectValue, let token = members["sessionToken"]?.stringValue,
            members["objectId"]?.stringValue != nil
        else { throw .jsonParsingFailed }
        var fields = members
        fields["sessionToken"] = nil
        let user = BmobUser(json: fields)
        user.sessionToken = token
        setCurrent(user)
        return user
    }

    // MARK: - The current user

    /// The logged-in user, or `nil`. After a launch, call ``restoreCurrent()`` first.
    public static var current: BmobUser? {
        CurrentUser.shared.user
    }

    /// Brings back the user saved by the last login on this device (for the initialized app), with its session
    /// token. Does not contact the server: see ``checkSession()``. Query answers cached for anyone else are
    /// removed; those this user cached before are kept.
    public static func restoreCurrent() async {
        let appKey = BmobClient.shared.currentSession?.appKey ?? ""
        guard let data = BmobCurrentUserStore.load(appKey: appKey),
            let saved = try? JSONParser.parse(data), let fields = saved["user"]?.objectValue,
            let token = saved["sessionToken"]?.stringValue
        else { return }
        let user = BmobUser(json: fields)
        user.sessionToken = token
        CurrentUser.shared.user = user
        BmobClient.shared.setUser(objectId: user.objectId, sessionToken: token)
        BmobQueryCache.clear(appKey: appKey, keepingUser: user.objectId)
    }

    /// Forgets the current user on this device, with the query answers cached on the device. The server's
    /// session stays valid until it expires; see ``logoutFromServer()``.
    public static func logout() {
        let appKey = BmobClient.shared.currentSession?.appKey ?? ""
        CurrentUser.shared.user = nil
        BmobClient.shared.setUser(objectId: nil, sessionToken: nil)
        BmobCurrentUserStore.clear(appKey: appKey)
        BmobQueryCache.clear(appKey: appKey)
    }

    /// Ends the current user's session on the server, then forgets it locally.
    ///
    /// - Throws: ``BmobError/authenticationFailed`` when no user is logged in; network and server errors, in
    ///   which case the user stays logged in and the call can be retried.
    public static func logoutFromServer() async throws {
        guard let user = current, let objectId = user.objectId, let token = user.sessionToken else {
            throw BmobError.authenticationFailed
        }
        try await logout(objectId: objectId, sessionToken: token)
    }

    /// Ends one user's session on the server with its token. The local user is forgotten only if it is still that
    /// user with that token (a login made meanwhile is kept).
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty id or token; network and server errors.
    public static func logout(objectId: String, sessionToken: String) async throws {
        guard !objectId.isEmpty, !sessionToken.isEmpty else {
            throw BmobError.invalidParameter(reason: "objectId and sessionToken are required")
        }
        _ = try await BmobClient.shared.call(
            "logout",
            ["c": .string(userClassName), "data": ["objectId": .string(objectId)], "sessionToken": .string(sessionToken)])
        if let user = current, user.objectId == objectId, user.sessionToken == sessionToken {
            logout()
        }
    }

    /// Whether this user's session is still valid on the server. `false` when the user has no objectId or
    /// session token. Does not log out, renew the token or touch the saved user.
    ///
    /// - Throws: network, server and protocol errors (which say nothing about the session).
    public func checkSession() async throws -> Bool {
        guard let objectId, let token = sessionToken, !objectId.isEmpty, !token.isEmpty else { return false }
        return try await Self.checkSession(objectId: objectId, sessionToken: token)
    }

    /// Whether `sessionToken` is a valid session of the user `objectId`, without changing the current user.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for an empty id or token; network, server and protocol
    ///   errors.
    public static func checkSession(objectId: String, sessionToken: String) async throws -> Bool {
        guard !objectId.isEmpty, !sessionToken.isEmpty else {
            throw BmobError.invalidParameter(reason: "objectId and sessionToken are required")
        }
        let answer = try await BmobClient.shared.call(
            "check_session",
            ["c": .string(userClassName), "objectId": .string(objectId), "sessionToken": .string(sessionToken)])
        switch answer["msg"]?.stringValue {
        case "ok": return true
        case "fail": return false
        default: throw BmobError.jsonParsingFailed
        }
    }

    // MARK: - Changes

    /// Saves the user's changed fields with the user's own session token.
    ///
    /// - Throws: ``BmobError/serverError(code:message:)`` 206 without a valid session of this user, 202/203/209
    ///   when a new username, email or phone number is taken.
    public func update() async throws {
        guard objectId != nil else { throw BmobError.invalidParameter(reason: "the user has not signed up") }
        let change = try pendingChange()
        var request = change.request
        if let token = sessionToken { request["sessionToken"] = .string(token) }
        let answer = try await BmobClient.shared.call(change.route, request)
        finishSave(change, answer: answer)
        if let current = Self.current, current.objectId == objectId { Self.persist(current) }
    }

    /// Changes the password. The server ends the user's other sessions; this one stays valid.
    ///
    /// - Throws: ``BmobError/serverError(code:message:)`` 210 for a wrong old password.
    public func updatePassword(oldPassword: String, newPassword: String) async throws {
        guard let objectId else { throw BmobError.invalidParameter(reason: "the user has not signed up") }
        var request: [String: JSONValue] = [
            "c": .string(Self.userClassName), "objectId": .string(objectId),
            "data": ["oldPassword": .string(oldPassword), "newPassword": .string(newPassword)],
        ]
        if let token = sessionToken { request["sessionToken"] = .string(token) }
        _ = try await BmobClient.shared.call("update_user_password", request)
    }

    // MARK: - Persistence

    /// Makes `user` the current user: requests run as it from now on, it is saved on the device, and when it is
    /// not the user requests ran as before, the query answers cached on the device are removed (they were
    /// filtered by another user's ACLs).
    private static func setCurrent(_ user: BmobUser) {
        let appKey = BmobClient.shared.currentSession?.appKey ?? ""
        let previous = BmobClient.shared.user.objectId
        CurrentUser.shared.user = user
        BmobClient.shared.setUser(objectId: user.objectId, sessionToken: user.sessionToken)
        persist(user)
        if previous != user.objectId {
            BmobQueryCache.clear(appKey: appKey)
        }
    }

    private static func persist(_ user: BmobUser) {
        let appKey = BmobClient.shared.currentSession?.appKey ?? ""
        var fields = user.lock.withLock { user.fields }
        fields["objectId"] = user.objectId.map(JSONValue.string)
        let record: JSONValue = ["user": .object(fields), "sessionToken": user.sessionToken.map(JSONValue.string) ?? .null]
        var bytes: [UInt8] = []
        record.appendJSON(to: &bytes)
        BmobCurrentUserStore.save(Data(bytes), appKey: appKey)
    }
}
