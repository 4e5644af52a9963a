import BmobStore
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
    package func authorize(socketId text: String, channelName: String, context: AppContext) async throws -> JSONValue {
        let channels = try Self.credentials(context)
        let socketId = try Self.socketId(text)
        let channel: PusherChannelName
        do { channel = try PusherChannelName(validating: channelName) } catch { throw BmobAPIError(.invalidJSON, error.message) }
        guard channel.kind == .private || channel.kind == .presence else {
            throw BmobAPIError(.invalidJSON, "only private- and presence- channels are authorized; public ones need no signature")
        }
        let caller = try await callers.caller(context)
        guard case .grantees(let grantees) = caller.scope, let userId = caller.scope.userId else {
            throw BmobAPIError(.sessionRequired, "a user's session token is required to join a private or presence channel")
        }
        guard let rule = channels.effectiveRules.first(where: { $0.matches(channelName, userId: userId) }),
            Self.allows(rule, grantees: grantees)
        else {
            throw BmobAPIError(.forbidden, "no channel rule lets this user join \(channelName)", status: .forbidden)
        }
        guard channel.kind == .presence else {
            return [
                "auth": .string(
                    PusherSignatures.channelAuth(
                        key: channels.key, secret: channels.secret, socketId: socketId, channel: channel, channelData: nil))
            ]
        }
        let info = try await userInfo(rule.userInfo, userId: userId, context: context)
        let channelData = JSONValue.object(["user_id": .string(userId), "user_info": info]).jsonString
        let auth = PusherSignatures.channelAuth(
            key: channels.key, secret: channels.secret, socketId: socketId, channel: channel, channelData: channelData)
        return ["auth": .string(auth), "channel_data": .string(channelData), "member_data": .string(channelData)]
    }

    /// `{"auth", "user_data"}` signing the caller in on its connection as `{"id": <objectId>}`.
    package func signIn(socketId text: String, context: AppContext) async throws -> JSONValue {
        let channels = try Self.credentials(context)
        let socketId = try Self.socketId(text)
        let caller = try await callers.caller(context)
        guard let userId = caller.scope.userId else {
            throw BmobAPIError(.sessionRequired, "a user's session token is required to sign in")
        }
        let userData = JSONValue.object(["id": .string(userId)]).jsonString
        return [
            "auth": .string(
                PusherSignatures.userAuth(key: channels.key, secret: channels.secret, socketId: socketId, userData: userData)),
            "user_data": .string(userData),
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

    private static func allows(_ rule: ChannelRule, grantees: Set<String>) -> Bool {
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

    /// `\d+\.\d+`, as Pusher's libraries require (a looser id once let an endpoint sign other channels).
    private static func socketId(_ text: String) throws(BmobAPIError) -> PusherSocketId {
        do { return try PusherSocketId(validating: text) } catch { throw BmobAPIError(.invalidJSON, error.message) }
    }
}
