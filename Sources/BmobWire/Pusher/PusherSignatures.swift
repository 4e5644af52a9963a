import BmobCrypto

/// Pusher's HMAC-SHA256 signatures: channel authorization, user signin, HTTP API requests and webhooks
/// (`pusher.md` §4, §6, §7, §8).
///
/// Every signature is `hex(HMAC-SHA256(key: app secret, message: string to sign))` in lowercase; `auth` tokens
/// are `"{app key}:{signature}"`. Verification recomputes the signature over the **exact** strings received
/// (`channel_data`, `user_data`, query values) and compares in constant time.
///
/// ## Topics
/// ### Channels and signin
/// - ``channelStringToSign(socketId:channel:channelData:)``
/// - ``userStringToSign(socketId:userData:)``
/// - ``channelAuth(key:secret:socketId:channel:channelData:)``
/// - ``userAuth(key:secret:socketId:userData:)``
/// - ``verifyChannelAuth(_:key:secret:socketId:channel:channelData:)``
/// - ``verifyUserAuth(_:key:secret:socketId:userData:)``
/// ### HTTP API
/// - ``apiStringToSign(method:path:query:)``
/// - ``apiSignature(secret:method:path:query:)``
/// - ``bodyMD5(_:)``
/// - ``verifyAPIRequest(method:path:query:body:now:secret:)``
/// ### Webhooks
/// - ``webhookSignature(secret:body:)``
package enum PusherSignatures {
    /// How far an HTTP API request's `auth_timestamp` may be from the server's clock, either way, in seconds.
    package static let maximumTimestampSkewSeconds: Int64 = 600

    /// The lowercase hex HMAC-SHA256 of `message` under `secret`.
    ///
    /// - Parameters:
    ///   - secret: the app secret.
    ///   - message: the string to sign.
    /// - Returns: 64 lowercase hex digits.
    package static func signature(secret: String, message: String) -> String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array(message.utf8)))
    }

    /// The string a channel subscription's signature covers: `{socket_id}:{channel}` for a private channel,
    /// `{socket_id}:{channel}:{channel_data}` for a presence channel (with `channelData` exactly as received).
    ///
    /// - Parameters:
    ///   - socketId: the subscribing connection.
    ///   - channel: the channel.
    ///   - channelData: the `channel_data` string; used only on presence channels.
    /// - Returns: the string to sign.
    package static func channelStringToSign(
        socketId: PusherSocketId, channel: PusherChannelName, channelData: String?
    ) -> String {
        var text = socketId.rawValue + ":" + channel.rawValue
        if channel.kind == .presence, let channelData { text += ":" + channelData }
        return text
    }

    /// The string a signin's signature covers: `{socket_id}::user::{user_data}`.
    ///
    /// - Parameters:
    ///   - socketId: the connection signing in.
    ///   - userData: the `user_data` string, exactly as sent.
    /// - Returns: the string to sign.
    package static func userStringToSign(socketId: PusherSocketId, userData: String) -> String {
        socketId.rawValue + "::user::" + userData
    }

    /// The `auth` value an auth endpoint returns for a channel: `{key}:{signature}`.
    ///
    /// - Parameters:
    ///   - key: the app key.
    ///   - secret: the app secret.
    ///   - socketId: the subscribing connection.
    ///   - channel: the channel.
    ///   - channelData: the `channel_data` string, for presence channels.
    /// - Returns: the `auth` token.
    package static func channelAuth(
        key: String, secret: String, socketId: PusherSocketId, channel: PusherChannelName, channelData: String?
    ) -> String {
        let message = channelStringToSign(socketId: socketId, channel: channel, channelData: channelData)
        return key + ":" + signature(secret: secret, message: message)
    }

    /// The `auth` value a user-auth endpoint returns: `{key}:{signature}` over
    /// ``userStringToSign(socketId:userData:)``.
    ///
    /// - Parameters:
    ///   - key: the app key.
    ///   - secret: the app secret.
    ///   - socketId: the connection signing in.
    ///   - userData: the `user_data` string.
    /// - Returns: the `auth` token.
    package static func userAuth(key: String, secret: String, socketId: PusherSocketId, userData: String) -> String {
        key + ":" + signature(secret: secret, message: userStringToSign(socketId: socketId, userData: userData))
    }

    /// Verifies a subscription's `auth` for a private or presence channel.
    ///
    /// - Parameters:
    ///   - auth: the `auth` received, `nil` when there was none.
    ///   - key: the app key the token must name.
    ///   - secret: the app secret.
    ///   - socketId: the subscribing connection.
    ///   - channel: the channel.
    ///   - channelData: the `channel_data` string exactly as received; required on presence channels.
    /// - Throws: ``PusherProtocolError`` with no code (Pusher's connection-level `"code": null`, connection kept):
    ///   ``PusherProtocolError/Kind/invalidChannelData`` when a presence channel has no `channel_data`,
    ///   ``PusherProtocolError/Kind/invalidSignature`` for a missing, malformed or wrong `auth`.
    package static func verifyChannelAuth(
        _ auth: String?, key: String, secret: String, socketId: PusherSocketId, channel: PusherChannelName,
        channelData: String?
    ) throws(PusherProtocolError) {
        if channel.kind == .presence, channelData == nil {
            throw PusherProtocolError(.invalidChannelData, "presence subscriptions need channel_data")
        }
        let expected = channelStringToSign(socketId: socketId, channel: channel, channelData: channelData)
        guard let auth, verify(auth, key: key, secret: secret, message: expected) else {
            throw PusherProtocolError(.invalidSignature, "Invalid signature for the subscription")
        }
    }

    /// Verifies a signin's `auth`.
    ///
    /// - Parameters:
    ///   - auth: the `auth` received.
    ///   - key: the app key the token must name.
    ///   - secret: the app secret.
    ///   - socketId: the connection signing in.
    ///   - userData: the `user_data` string exactly as received.
    /// - Throws: ``PusherProtocolError`` of kind ``PusherProtocolError/Kind/invalidSignature`` with code 4009,
    ///   closing the connection (as soketi does).
    package static func verifyUserAuth(
        _ auth: String, key: String, secret: String, socketId: PusherSocketId, userData: String
    ) throws(PusherProtocolError) {
        let expected = userStringToSign(socketId: socketId, userData: userData)
        guard verify(auth, key: key, secret: secret, message: expected) else {
            throw PusherProtocolError(
                .invalidSignature, "Invalid signature for the signin", code: .connectionUnauthorized,
                closesConnection: true)
        }
    }

    /// Whether `auth` is `{key}:{signature of message}`; the signature is compared in constant time.
    private static func verify(_ auth: String, key: String, secret: String, message: String) -> Bool {
        // Split at the last ':': signatures are hex, so any ':' belongs to the key.
        guard let colon = auth.utf8.lastIndex(of: UInt8(ascii: ":")) else { return false }
        let givenKey = auth.utf8[..<colon]
        let givenSignature = auth.utf8[auth.utf8.index(after: colon)...]
        let expected = signature(secret: secret, message: message)
        let keyMatches = ConstantTime.equals(givenKey, key.utf8)
        let signatureMatches = ConstantTime.equals(givenSignature, expected.utf8)
        return keyMatches && signatureMatches
    }

    /// The string an HTTP API request's signature covers: `{METHOD}\n{path}\n{query}`, the query being every
    /// parameter but `auth_signature`, keys lowercased, sorted by key, joined as `k=v` with `&`, values **not**
    /// URL-escaped.
    ///
    /// - Parameters:
    ///   - method: the request method, such as `POST`.
    ///   - path: the request path without the query, as received (`/apps/3/events`).
    ///   - query: the query parameters with percent-decoding already applied (phttp sends values unescaped;
    ///     clients that escape them signed the unescaped value).
    /// - Returns: the string to sign.
    package static func apiStringToSign(method: String, path: String, query: [(name: String, value: String)]) -> String
    {
        let pairs = query.map { (name: $0.name.lowercased(), value: $0.value) }
            .filter { $0.name != "auth_signature" }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let joined = pairs.map { $0.name + "=" + $0.value }.joined(separator: "&")
        return method + "\n" + path + "\n" + joined
    }

    /// The `auth_signature` of an HTTP API request.
    ///
    /// - Parameters:
    ///   - secret: the app secret.
    ///   - method: the request method.
    ///   - path: the request path.
    ///   - query: the decoded query parameters (`auth_signature`, if present, is ignored).
    /// - Returns: 64 lowercase hex digits.
    package static func apiSignature(
        secret: String, method: String, path: String, query: [(name: String, value: String)]
    ) -> String {
        signature(secret: secret, message: apiStringToSign(method: method, path: path, query: query))
    }

    /// The `body_md5` of a request body: lowercase hex MD5 of the raw bytes.
    ///
    /// - Parameter body: the body as received.
    /// - Returns: 32 lowercase hex digits.
    package static func bodyMD5(_ body: some Collection<UInt8>) -> String {
        MD5.hex(body)
    }

    /// Verifies a signed HTTP API request.
    ///
    /// Checks, in order: each parameter appears once (keys compared lowercased); `auth_key` is present and
    /// `secret` knows it; `auth_signature` and `auth_timestamp` are present; `auth_version` is `1.0`; the
    /// timestamp is within ``maximumTimestampSkewSeconds`` of `now`; `body_md5` matches the body (required when
    /// the body is not empty, checked whenever sent, as phttp signs it on GET too); and the signature, in constant
    /// time.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - path: the request path without the query, as received.
    ///   - query: the decoded query parameters.
    ///   - body: the raw body.
    ///   - now: the server's clock, in seconds since 1970.
    ///   - secret: the secret of an app key, or `nil` for an unknown key.
    /// - Returns: the `auth_key` the request was signed with.
    /// - Throws: ``PusherProtocolError`` (see ``PusherProtocolError/httpStatus``):
    ///   ``PusherProtocolError/Kind/invalidAPIAuthentication``, ``PusherProtocolError/Kind/timestampOutOfRange``,
    ///   ``PusherProtocolError/Kind/bodyDigestMismatch`` or ``PusherProtocolError/Kind/invalidSignature``.
    @discardableResult
    package static func verifyAPIRequest(
        method: String, path: String, query: [(name: String, value: String)], body: some Collection<UInt8>,
        now: Int64, secret: (String) -> String?
    ) throws(PusherProtocolError) -> String {
        var parameters: [String: String] = [:]
        for (name, value) in query {
            guard parameters.updateValue(value, forKey: name.lowercased()) == nil else {
                throw PusherProtocolError(.invalidAPIAuthentication, "a query parameter appears more than once")
            }
        }
        guard let key = parameters["auth_key"] else {
            throw PusherProtocolError(.invalidAPIAuthentication, "auth_key is missing")
        }
        guard let appSecret = secret(key) else {
            throw PusherProtocolError(.invalidAPIAuthentication, "unknown auth_key")
        }
        guard let given = parameters["auth_signature"] else {
            throw PusherProtocolError(.invalidAPIAuthentication, "auth_signature is missing")
        }
        guard let timestampText = parameters["auth_timestamp"] else {
            throw PusherProtocolError(.invalidAPIAuthentication, "auth_timestamp is missing")
        }
        guard parameters["auth_version"] == "1.0" else {
            throw PusherProtocolError(.invalidAPIAuthentication, "auth_version must be 1.0")
        }
        guard !timestampText.isEmpty, timestampText.utf8.count <= 18,
            timestampText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let timestamp = Int64(timestampText)
        else {
            throw PusherProtocolError(.invalidAPIAuthentication, "auth_timestamp must be seconds since 1970")
        }
        let skew = now >= timestamp ? now - timestamp : timestamp - now
        guard skew <= maximumTimestampSkewSeconds else {
            throw PusherProtocolError(
                .timestampOutOfRange,
                "auth_timestamp is more than \(maximumTimestampSkewSeconds) s from the server's clock")
        }
        if let digest = parameters["body_md5"] {
            guard digest.lowercased() == bodyMD5(body) else {
                throw PusherProtocolError(.bodyDigestMismatch, "body_md5 does not match the body")
            }
        } else if !body.isEmpty {
            throw PusherProtocolError(.bodyDigestMismatch, "body_md5 is missing")
        }
        let expected = apiSignature(secret: appSecret, method: method, path: path, query: query)
        guard ConstantTime.equals(given.lowercased().utf8, expected.utf8) else {
            throw PusherProtocolError(.invalidSignature, "auth_signature does not match the request")
        }
        return key
    }

    /// The `X-Pusher-Signature` of a webhook: lowercase hex HMAC-SHA256 of the raw body.
    ///
    /// - Parameters:
    ///   - secret: the app secret.
    ///   - body: the webhook's body.
    /// - Returns: 64 lowercase hex digits.
    package static func webhookSignature(secret: String, body: some Collection<UInt8>) -> String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(secret.utf8), message: body))
    }
}
