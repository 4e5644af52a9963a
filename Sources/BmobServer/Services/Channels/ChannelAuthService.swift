import BmobStore
import BmobCrypto
package import BmobWire

/// The built-in authorization endpoint for apps without a backend of their own: a logged-in Bmob user asks for
/// the signature that lets its connection into a private or presence channel (`POST /1/channels/auth`) or sign
/// in as itself (`POST /1/channels/auth/member`), and the app's channel rules (``ChannelRule``) decide.
///
/// Signatures follow the Pusher protocol: `hex(HMAC-SHA256(secret, "<socket>:<channel>[:<channel_data>]"))` and,
/// for a signin, `"<socket>::user::<user_data>"`, answered as `"<key>:<signature>"`. A signature binds the
/// connection (`socket_id`), so one cannot be reused on another connection.
package struct ChannelAuthService: Sendable {
    package let callers: CallerResolver

    package init(callers: CallerResolver) {
        self.callers = callers
    }

    /// The longest `user_info` a presence member may carry, as JSON text.
    package static let maximumUserInfoBytes = 1024

    /// `{"auth"}` for a private channel; `{"auth", "channel_data", "member_data"}` (the same JSON text, under
    /// Pusher's and Bird's names) for a presence channel, whose member is the caller.
    ///
    /// - Throws: ``BmobAPIError`` 206 without a user session, 107 for a bad socket id or channel name, 403/501
    ///   when no rule lets the caller in, 404 when the app has no channel credentials.
    package func authorize(socketId: String, channelName: String, context: AppContext) async throws -> JSONValue {
        let channels = try Self.credentials(context)
        try Self.validate(socketId: socketId)
        try Self.validate(channelName: channelName)
        let isPresence = channelName.hasPrefix("presence-")
        guard isPresence || channelName.hasPrefix("private-") else {
            throw BmobAPIError(.invalidJSON, "only private- and presence- channels are authorized; public ones need no signature")
        }
        guard !channelName.hasPrefix("private-encrypted-") else {
            throw BmobAPIError(.invalidJSON, "encrypted channels are not supported")
        }
        let caller = try await callers.caller(context)
        guard case .grantees(let grantees) = caller.scope, let userId = caller.scope.userId else {
            throw BmobAPIError(.sessionRequired, "a user's session token is required to join a private or presence channel")
        }
        guard let rule = channels.effectiveRules.first(where: { $0.matches(channelName, userId: userId) }),
            Self.allows(rule, userId: userId, grantees: grantees, channelName: channelName)
        else {
            throw BmobAPIError(.forbidden, "no channel rule lets this user join \(channelName)", status: .forbidden)
        }
        guard isPresence else {
            return ["auth": .string(Self.auth(channels, "\(socketId):\(channelName)"))]
        }
        let info = try await userInfo(rule.userInfo, userId: userId, context: context)
        let channelData = JSONValue.object(["user_id": .string(userId), "user_info": info]).jsonString
        return [
            "auth": .string(Self.auth(channels, "\(socketId):\(channelName):\(channelData)")),
            "channel_data": .string(channelData), "member_data": .string(channelData),
        ]
    }

    /// `{"auth", "user_data"}` signing the caller in on its connection as `{"id": <objectId>}`.
    package func signIn(socketId: String, context: AppContext) async throws -> JSONValue {
        let channels = try Self.credentials(context)
        try Self.validate(socketId: socketId)
        let caller = try await callers.caller(context)
        guard let userId = caller.scope.userId else {
            throw BmobAPIError(.sessionRequired, "a user's session token is required to sign in")
        }
        let userData = JSONValue.object(["id": .string(userId)]).jsonString
        return [
            "auth": .string(Self.auth(channels, "\(socketId)::user::\(userData)")), "user_data": .string(userData),
        ]
    }

    /// The listed fields of the user as the public may read them (a presence member's `user_info` is sent to
    /// every other member), within ``maximumUserInfoBytes``.
    private func userInfo(_ fields: [String], userId: String, context: AppContext) async throws -> JSONValue {
        guard !fields.isEmpty else { return [:] }
        let renderer = context.renderer(for: .anonymous)
        let user = try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in try transaction.fetch(className: UserService.className, objectId: userId) }
        }
        guard let user else { return [:] }
        let rendered = renderer.render(user)
        var info: [String: JSONValue] = [:]
        for field in fields where !UserPrivacy.credentialFields.contains(field) && field != "authData" {
            if let value = rendered[field] { info[field] = value }
        }
        let json = JSONValue.object(info)
        guard json.jsonBytes.count <= Self.maximumUserInfoBytes else {
            throw BmobAPIError(.validationFailed, "the member's user_info is over \(Self.maximumUserInfoBytes) bytes")
        }
        return json
    }

    private static func allows(_ rule: ChannelRule, userId: String, grantees: Set<String>, channelName: String) -> Bool {
        switch rule.users {
        case .any: true
        case .own: true  // matching put the caller's own id into the pattern
        case .role(let name): grantees.contains("role:" + name)
        }
    }

    private static func credentials(_ context: AppContext) throws(BmobAPIError) -> AppChannels {
        guard let channels = context.app.channels else {
            throw BmobAPIError(
                .notFound, "the app has no channel credentials (bmob apps channels --create)", status: .notFound)
        }
        return channels
    }

    static func auth(_ channels: AppChannels, _ message: String) -> String {
        let code = HMACSHA256.authenticationCode(key: Array(channels.secret.utf8), message: Array(message.utf8))
        return channels.key + ":" + Hex.encode(code)
    }

    /// `\d+\.\d+`, as Pusher's libraries require (a looser id once let an endpoint sign other channels).
    static func validate(socketId: String) throws(BmobAPIError) {
        let parts = socketId.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard socketId.utf8.count <= 64, parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } })
        else { throw BmobAPIError(.invalidJSON, "socket_id must be digits, a dot and digits") }
    }

    /// At most 164 characters of `[A-Za-z0-9_\-=@,.;]`.
    static func validate(channelName: String) throws(BmobAPIError) {
        let allowed: (UInt8) -> Bool = { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "_-=@,.;".utf8.contains(byte)
        }
        guard !channelName.isEmpty, channelName.utf8.count <= 164, channelName.utf8.allSatisfy(allowed) else {
            throw BmobAPIError(.invalidJSON, "channel_name must be 1 to 164 characters of A-Z a-z 0-9 _ - = @ , . ;")
        }
    }
}
