import BmobWire
import Testing

/// ``PusherSignatures`` on every test vector of `pusher.md` §4, §6, §7 and §8, and verification refusing any
/// change to what was signed.
@Suite struct PusherSignaturesTests {
    static let key = "278d425bdf160c739803"
    static let secret = "7ad3773142a6692b25b8"
    static let compactChannelData = #"{"user_id":10,"user_info":{"name":"Mr. Channels"}}"#
    static let spacedChannelData = #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#

    static func socket() throws -> PusherSocketId { try PusherSocketId(validating: "1234.1234") }
    static func channel(_ name: String) throws -> PusherChannelName { try PusherChannelName(validating: name) }

    // MARK: §4 channel authorization

    @Test func privateChannelVector() throws {
        let channel = try Self.channel("private-foobar")
        let socket = try Self.socket()
        #expect(
            PusherSignatures.channelStringToSign(socketId: socket, channel: channel, channelData: nil)
                == "1234.1234:private-foobar")
        let auth = PusherSignatures.channelAuth(
            key: Self.key, secret: Self.secret, socketId: socket, channel: channel, channelData: nil)
        #expect(auth == "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4")
        try PusherSignatures.verifyChannelAuth(
            auth, key: Self.key, secret: Self.secret, socketId: socket, channel: channel, channelData: nil)
    }

    @Test(arguments: [
        (PusherSignaturesTests.compactChannelData, "31935e7d86dba64c2a90aed31fdc61869f9b22ba9d8863bba239c03ca481bc80"),
        (PusherSignaturesTests.spacedChannelData, "5b8808f3035fec2e4157c6b430a06d5b0de16d174e1a779e0e2b64d9983bde27"),
    ])
    func presenceChannelVectors(channelData: String, signature: String) throws {
        let channel = try Self.channel("presence-foobar")
        let socket = try Self.socket()
        #expect(
            PusherSignatures.channelStringToSign(socketId: socket, channel: channel, channelData: channelData)
                == "1234.1234:presence-foobar:" + channelData)
        let auth = PusherSignatures.channelAuth(
            key: Self.key, secret: Self.secret, socketId: socket, channel: channel, channelData: channelData)
        #expect(auth == Self.key + ":" + signature)
        try PusherSignatures.verifyChannelAuth(
            auth, key: Self.key, secret: Self.secret, socketId: socket, channel: channel, channelData: channelData)
    }

    /// A signature over phttp's spaced `channel_data` does not verify against the compact re-serialization: the
    /// exact string received is what counts.
    @Test func presenceVerifiesOnlyTheExactString() throws {
        let channel = try Self.channel("presence-foobar")
        let socket = try Self.socket()
        let auth = Self.key + ":5b8808f3035fec2e4157c6b430a06d5b0de16d174e1a779e0e2b64d9983bde27"
        #expect(throws: PusherProtocolError.self) {
            try PusherSignatures.verifyChannelAuth(
                auth, key: Self.key, secret: Self.secret, socketId: socket, channel: channel,
                channelData: Self.compactChannelData)
        }
        // Missing channel_data on a presence channel is its own error.
        #expect {
            try PusherSignatures.verifyChannelAuth(
                auth, key: Self.key, secret: Self.secret, socketId: socket, channel: channel, channelData: nil)
        } throws: { error in
            (error as? PusherProtocolError)?.kind == .invalidChannelData
        }
    }

    /// A private channel's string ignores channel_data.
    @Test func privateIgnoresChannelData() throws {
        let channel = try Self.channel("private-foobar")
        #expect(
            PusherSignatures.channelStringToSign(socketId: try Self.socket(), channel: channel, channelData: "{}")
                == "1234.1234:private-foobar")
    }

    @Test(
        arguments: [
            nil,
            "",
            "58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4",
            ":58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4",
            "278d425bdf160c739803:",
            "278d425bdf160c739804:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4",
            "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a5",
            "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a",
            "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4 ",
            "278d425bdf160c739803:58DF8B0C36D6982B82C3ECF6B4662E34FE8C25BBA48F5369F135BF843651C3A4",
            "x:278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4",
        ] as [String?])
    func badChannelAuthIsRefused(auth: String?) throws {
        let channel = try Self.channel("private-foobar")
        let socket = try Self.socket()
        #expect {
            try PusherSignatures.verifyChannelAuth(
                auth, key: Self.key, secret: Self.secret, socketId: socket, channel: channel, channelData: nil)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            // Connection-level, code null, connection kept (§3.3).
            return error.kind == .invalidSignature && error.code == nil && !error.closesConnection
                && !error.message.isEmpty
        }
    }

    /// The signature binds the socket id and the channel.
    @Test func otherSocketOrChannelIsRefused() throws {
        let auth = Self.key + ":58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4"
        #expect(throws: PusherProtocolError.self) {
            try PusherSignatures.verifyChannelAuth(
                auth, key: Self.key, secret: Self.secret, socketId: try PusherSocketId(validating: "1234.1235"),
                channel: try Self.channel("private-foobar"), channelData: nil)
        }
        #expect(throws: PusherProtocolError.self) {
            try PusherSignatures.verifyChannelAuth(
                auth, key: Self.key, secret: Self.secret, socketId: try Self.socket(),
                channel: try Self.channel("private-foobaz"), channelData: nil)
        }
        #expect(throws: PusherProtocolError.self) {
            try PusherSignatures.verifyChannelAuth(
                auth, key: Self.key, secret: "another secret", socketId: try Self.socket(),
                channel: try Self.channel("private-foobar"), channelData: nil)
        }
    }

    // MARK: §6 signin

    @Test func userVector() throws {
        let socket = try Self.socket()
        let userData = #"{"id":"12345"}"#
        #expect(
            PusherSignatures.userStringToSign(socketId: socket, userData: userData)
                == #"1234.1234::user::{"id":"12345"}"#)
        let auth = PusherSignatures.userAuth(key: Self.key, secret: Self.secret, socketId: socket, userData: userData)
        #expect(auth == Self.key + ":4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba")
        try PusherSignatures.verifyUserAuth(
            auth, key: Self.key, secret: Self.secret, socketId: socket, userData: userData)
    }

    /// phttp's spaced `{"id": "12345"}` signs differently; a bad signin closes with 4009.
    @Test func badSigninClosesWith4009() throws {
        let auth = Self.key + ":4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba"
        #expect {
            try PusherSignatures.verifyUserAuth(
                auth, key: Self.key, secret: Self.secret, socketId: try Self.socket(), userData: #"{"id": "12345"}"#)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .invalidSignature && error.code == .connectionUnauthorized && error.closesConnection
        }
    }

    // MARK: §7 HTTP API

    static let body = #"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#
    static let apiQuery: [(name: String, value: String)] = [
        ("auth_key", key), ("auth_timestamp", "1353088179"), ("auth_version", "1.0"),
        ("body_md5", "ec365a775a4cd0599faeb73354201b6f"),
        ("auth_signature", "da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c"),
    ]

    static func secretFor(_ key: String) -> String? { key == Self.key ? Self.secret : nil }

    @Test func apiVector() throws {
        #expect(PusherSignatures.bodyMD5(Array(Self.body.utf8)) == "ec365a775a4cd0599faeb73354201b6f")
        #expect(PusherSignatures.bodyMD5([UInt8]()) == "d41d8cd98f00b204e9800998ecf8427e")
        // The order parameters arrive in, and auth_signature's presence, do not matter.
        let shuffled = Array(Self.apiQuery.reversed())
        #expect(
            PusherSignatures.apiStringToSign(method: "POST", path: "/apps/3/events", query: shuffled)
                == "POST\n/apps/3/events\nauth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0"
                + "&body_md5=ec365a775a4cd0599faeb73354201b6f")
        #expect(
            PusherSignatures.apiSignature(secret: Self.secret, method: "POST", path: "/apps/3/events", query: shuffled)
                == "da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c")
        let key = try PusherSignatures.verifyAPIRequest(
            method: "POST", path: "/apps/3/events", query: shuffled, body: Array(Self.body.utf8), now: 1_353_088_179,
            secret: Self.secretFor)
        #expect(key == Self.key)
    }

    /// Keys are lowercased and sorted; values go in unescaped.
    @Test func apiStringLowercasesSortsAndKeepsValues() {
        let text = PusherSignatures.apiStringToSign(
            method: "GET", path: "/apps/1/channels",
            query: [
                (name: "info", value: "user_count,subscription_count"), (name: "Auth_Key", value: "k"),
                (name: "filter_by_prefix", value: "presence-"), (name: "auth_signature", value: "ignored"),
            ])
        #expect(
            text == "GET\n/apps/1/channels\nauth_key=k&filter_by_prefix=presence-&info=user_count,subscription_count")
    }

    @Test(arguments: [-600, 600, 0, 599] as [Int64])
    func timestampWindowAccepts(offset: Int64) throws {
        try PusherSignatures.verifyAPIRequest(
            method: "POST", path: "/apps/3/events", query: Self.apiQuery, body: Array(Self.body.utf8),
            now: 1_353_088_179 + offset, secret: Self.secretFor)
    }

    @Test(arguments: [-601, 601, 100_000] as [Int64])
    func timestampWindowRefuses(offset: Int64) {
        #expect {
            try PusherSignatures.verifyAPIRequest(
                method: "POST", path: "/apps/3/events", query: Self.apiQuery, body: Array(Self.body.utf8),
                now: 1_353_088_179 + offset, secret: Self.secretFor)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .timestampOutOfRange && error.httpStatus == 401
        }
    }

    /// Expects the vector request, changed as given, to be refused with `expected`.
    static func refuse(
        _ expected: PusherProtocolError.Kind, method: String = "POST", path: String = "/apps/3/events",
        query: [(name: String, value: String)] = PusherSignaturesTests.apiQuery,
        body: String = PusherSignaturesTests.body
    ) {
        #expect {
            try PusherSignatures.verifyAPIRequest(
                method: method, path: path, query: query, body: Array(body.utf8), now: 1_353_088_179,
                secret: Self.secretFor)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == expected && !error.message.isEmpty
        }
    }

    /// The vector's query with `name` replaced by `value`, or removed when `value` is nil.
    static func replacing(_ name: String, with value: String?) -> [(name: String, value: String)] {
        var query = Self.apiQuery.filter { $0.name != name }
        if let value { query.append((name: name, value: value)) }
        return query
    }

    /// Each change to the request or its parameters is refused with its own kind.
    @Test func apiRefusals() {
        Self.refuse(.invalidSignature, method: "GET")
        Self.refuse(.invalidSignature, path: "/apps/4/events")
        Self.refuse(.bodyDigestMismatch, body: Self.body + " ")
        Self.refuse(.bodyDigestMismatch, query: Self.replacing("body_md5", with: nil))
        Self.refuse(.bodyDigestMismatch, query: Self.replacing("body_md5", with: "d41d8cd98f00b204e9800998ecf8427e"))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_key", with: nil))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_key", with: "unknown"))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_signature", with: nil))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_timestamp", with: nil))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_timestamp", with: "-1"))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_timestamp", with: "1353088179.5"))
        Self.refuse(
            .invalidAPIAuthentication, query: Self.replacing("auth_timestamp", with: String(repeating: "9", count: 40)))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_version", with: "2.0"))
        Self.refuse(.invalidAPIAuthentication, query: Self.replacing("auth_version", with: nil))
        Self.refuse(.invalidAPIAuthentication, query: Self.apiQuery + [(name: "AUTH_KEY", value: Self.key)])
        Self.refuse(.invalidSignature, query: Self.replacing("auth_signature", with: String(repeating: "0", count: 64)))
        Self.refuse(.invalidSignature, query: Self.apiQuery + [(name: "extra", value: "1")])
    }

    /// phttp signs body_md5 on a GET with an empty body; an empty body needs none.
    @Test func getWithAndWithoutBodyMD5() throws {
        var query: [(name: String, value: String)] = [
            ("auth_key", Self.key), ("auth_timestamp", "1353088179"), ("auth_version", "1.0"),
            ("body_md5", "d41d8cd98f00b204e9800998ecf8427e"), ("info", "user_count,subscription_count"),
        ]
        query.append(
            (
                name: "auth_signature",
                value: PusherSignatures.apiSignature(
                    secret: Self.secret, method: "GET", path: "/apps/3/channels/presence-x", query: query)
            ))
        try PusherSignatures.verifyAPIRequest(
            method: "GET", path: "/apps/3/channels/presence-x", query: query, body: [UInt8](), now: 1_353_088_179,
            secret: Self.secretFor)
        var bare = query.filter { $0.name != "body_md5" && $0.name != "auth_signature" }
        bare.append(
            (
                name: "auth_signature",
                value: PusherSignatures.apiSignature(
                    secret: Self.secret, method: "GET", path: "/apps/3/channels/presence-x", query: bare)
            ))
        try PusherSignatures.verifyAPIRequest(
            method: "GET", path: "/apps/3/channels/presence-x", query: bare, body: [UInt8](), now: 1_353_088_179,
            secret: Self.secretFor)
    }

    // MARK: §8 webhooks

    @Test func webhookVector() {
        let body = #"{"time_ms":1327078148132,"events":[{"name":"channel_occupied","channel":"test_channel"}]}"#
        #expect(
            PusherSignatures.webhookSignature(secret: Self.secret, body: Array(body.utf8))
                == "709fdb84c03664445f7698120b0edf0acc1ab1c8c6e93a0368c61841d6b998aa")
    }
}
