/// A validated Pusher channel name and its kind (`pusher.md` §3.1, §6).
///
/// A name has 1 to ``maximumLength`` characters from `[A-Za-z0-9_\-=@,.;]`, or is `#server-to-user-{user_id}`
/// with a user id of those characters. The kind follows the prefix: `private-`, `presence-`, the server-to-user
/// form, or none (public).
///
/// Two valid kinds are **refused** (``PusherProtocolError/Kind/unsupportedChannel``) rather than served wrongly:
/// - `private-encrypted-…`: the payload is end-to-end encrypted with a shared secret this server does not issue;
/// - `cache-…`, `private-cache-…`, `presence-cache-…`: clients expect the last event replayed on subscribe (or
///   `pusher:cache_miss`). Serving them as their base kind would silently drop that promise, so they are refused
///   until a cache exists.
package struct PusherChannelName: Sendable, Hashable, CustomStringConvertible {
    /// What a channel is, by its prefix.
    package enum Kind: Sendable, Hashable {
        /// No prefix: anyone may subscribe.
        case `public`
        /// `private-`: subscribing needs a signature over `socket_id:channel`.
        case `private`
        /// `presence-`: private, with a member list keyed by user id.
        case presence
        /// `#server-to-user-{id}`: only a connection signed in as that user may subscribe.
        case serverToUser
    }

    /// Names longer than this many characters are refused (Pusher's and Bird's limit, prefix included).
    package static let maximumLength = 164
    /// `private-`.
    package static let privatePrefix = "private-"
    /// `presence-`.
    package static let presencePrefix = "presence-"
    /// `#server-to-user-`.
    package static let serverToUserPrefix = "#server-to-user-"

    /// The name as sent on the wire.
    package let rawValue: String
    /// The kind of channel.
    package let kind: Kind

    /// The name, safe to log (only the allowed characters can be in it).
    package var description: String { rawValue }

    /// The user id of a `#server-to-user-{id}` channel, or `nil` for other kinds.
    package var serverToUserId: String? {
        guard kind == .serverToUser else { return nil }
        return String(decoding: rawValue.utf8.dropFirst(Self.serverToUserPrefix.utf8.count), as: UTF8.self)
    }

    /// Whether subscribing needs an `auth` signature (private and presence channels).
    package var requiresAuthorization: Bool { kind == .private || kind == .presence }

    /// Whether clients may send `client-` events on the channel (private and presence channels only).
    package var allowsClientEvents: Bool { requiresAuthorization }

    /// Validates a channel name.
    ///
    /// - Parameter name: the name as received.
    /// - Throws: ``PusherProtocolError`` of kind ``PusherProtocolError/Kind/invalidChannelName`` for a name that
    ///   is empty, too long or has a character outside the set, and
    ///   ``PusherProtocolError/Kind/unsupportedChannel`` for encrypted and cache channels. Neither closes the
    ///   connection.
    package init(validating name: String) throws(PusherProtocolError) {
        let utf8 = name.utf8
        guard !utf8.isEmpty else { throw PusherProtocolError(.invalidChannelName, "channel name is empty") }
        // Every allowed character is one ASCII byte, so bytes count characters for any name that passes.
        guard utf8.count <= Self.maximumLength else {
            throw PusherProtocolError(
                .invalidChannelName, "channel name is longer than \(Self.maximumLength) characters")
        }
        if utf8.starts(with: Self.serverToUserPrefix.utf8) {
            let id = utf8.dropFirst(Self.serverToUserPrefix.utf8.count)
            guard !id.isEmpty, id.allSatisfy(Self.isAllowed) else {
                throw PusherProtocolError(
                    .invalidChannelName, "a #server-to-user- channel needs a user id of [A-Za-z0-9_-=@,.;]")
            }
            self.rawValue = name
            self.kind = .serverToUser
            return
        }
        guard utf8.allSatisfy(Self.isAllowed) else {
            throw PusherProtocolError(
                .invalidChannelName, "channel names may only contain A-Z, a-z, 0-9, _, -, =, @, comma, . and ;")
        }
        if utf8.starts(with: "private-encrypted-".utf8) {
            throw PusherProtocolError(.unsupportedChannel, "encrypted channels are not supported")
        }
        if utf8.starts(with: "cache-".utf8) || utf8.starts(with: "private-cache-".utf8)
            || utf8.starts(with: "presence-cache-".utf8)
        {
            throw PusherProtocolError(.unsupportedChannel, "cache channels are not supported")
        }
        self.rawValue = name
        if utf8.starts(with: Self.privatePrefix.utf8) {
            self.kind = .private
        } else if utf8.starts(with: Self.presencePrefix.utf8) {
            self.kind = .presence
        } else {
            self.kind = .public
        }
    }

    /// The `#server-to-user-{userId}` channel of a user.
    ///
    /// - Parameter userId: the signed-in user's id.
    /// - Throws: ``PusherProtocolError`` when the id is empty, has a character outside the allowed set, or makes
    ///   the name too long.
    /// - Returns: the channel name.
    package static func serverToUser(_ userId: String) throws(PusherProtocolError) -> Self {
        try Self(validating: serverToUserPrefix + userId)
    }

    /// Whether a byte is one of `[A-Za-z0-9_\-=@,.;]`.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: ","),
            UInt8(ascii: "."), UInt8(ascii: ";"):
            true
        default: false
        }
    }
}
