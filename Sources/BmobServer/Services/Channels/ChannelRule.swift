import Foundation
package import BmobWire

/// Who the built-in channel authorization endpoint (``ChannelAuthService``) lets into private and presence
/// channels whose names match a pattern: `{"channel": "private-user-{userId}", "users": "self"}`.
///
/// A pattern is a channel name in which `{userId}` stands for the caller's objectId and a trailing `*` for any
/// rest. `users` is `any` (any logged-in user), `self` (the pattern must contain `{userId}`; the caller's own id
/// fills it), or `role:<Name>` (members of the role, directly or through child roles). `userInfo` names the `_User`
/// fields a presence channel shows the other members (only fields the public may read of a user).
package struct ChannelRule: Sendable, Equatable {
    /// Who may join.
    package enum Users: Sendable, Equatable {
        case any
        case own
        case role(String)
    }

    /// The channel names the rule covers.
    package var channel: String
    /// Who may join them.
    package var users: Users
    /// `_User` fields presence members see of each other.
    package var userInfo: [String]

    /// A rule from its parts.
    package init(channel: String, users: Users, userInfo: [String] = []) {
        self.channel = channel
        self.users = users
        self.userInfo = userInfo
    }

    /// The rules of an app that set none: each user's own `private-user-<id>` and `presence-user-<id>`.
    package static let defaults = [
        ChannelRule(channel: "private-user-{userId}", users: .own),
        ChannelRule(channel: "presence-user-{userId}", users: .own),
    ]

    /// Whether `name` matches the pattern for the user `userId` (a `{userId}` pattern never matches without one).
    package func matches(_ name: String, userId: String?) -> Bool {
        var pattern = channel
        if pattern.contains("{userId}") {
            guard let userId else { return false }
            pattern = pattern.replacingOccurrences(of: "{userId}", with: userId)
        }
        if pattern.hasSuffix("*") { return name.hasPrefix(pattern.dropLast()) }
        return name == pattern
    }

    /// As stored in `apps.json`.
    package var json: JSONValue {
        let users: String
        switch self.users {
        case .any: users = "any"
        case .own: users = "self"
        case .role(let name): users = "role:" + name
        }
        return ["channel": .string(channel), "users": .string(users), "userInfo": .array(userInfo.map { .string($0) })]
    }

    /// Reads ``json``.
    ///
    /// - Throws: ``ConfigurationError`` naming what is wrong.
    package init(json: JSONValue) throws(ConfigurationError) {
        guard let channel = json["channel"]?.stringValue, !channel.isEmpty, channel.utf8.count <= 164,
            channel.hasPrefix("private-") || channel.hasPrefix("presence-")
        else {
            throw ConfigurationError("channels.rules: each rule needs a channel pattern starting with private- or presence-")
        }
        let users: Users
        switch json["users"]?.stringValue {
        case "any"?: users = .any
        case "self"?:
            guard channel.contains("{userId}") else {
                throw ConfigurationError("channels.rules: a 'self' rule's channel must contain {userId}")
            }
            users = .own
        case let text? where text.hasPrefix("role:") && text.count > 5: users = .role(String(text.dropFirst(5)))
        default: throw ConfigurationError("channels.rules: users must be any, self or role:<Name>")
        }
        var userInfo: [String] = []
        for field in json["userInfo"]?.arrayValue ?? [] {
            guard let name = field.stringValue, BmobName.isValidFieldName(name) else {
                throw ConfigurationError("channels.rules: userInfo lists field names")
            }
            userInfo.append(name)
        }
        self.init(channel: channel, users: users, userInfo: userInfo)
    }
}
