import BmobCrypto
import BmobWire
import Testing

/// ``WebSocketHandshake`` on RFC 6455's example and on every way an upgrade request or response can be wrong.
@Suite struct WebSocketHandshakeTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func request(
        method: HTTPMethod = .get,
        version: HTTPVersion = .http1_1,
        dropping dropped: String? = nil,
        replacing replaced: (String, String)? = nil,
        adding added: (String, String)? = nil
    ) -> HTTPRequestHead {
        var headers: HTTPHeaders = [
            "Host": "server.example.com", "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13", "Origin": "http://example.com",
        ]
        if let dropped { headers.remove(name: dropped) }
        if let (name, value) = replaced { headers.replaceOrAdd(name: name, value: value) }
        if let (name, value) = added { headers.add(name: name, value: value) }
        return HTTPRequestHead(method: method, target: "/chat", version: version, headers: headers)
    }

    @Test func rfcSection1_3Example() throws {
        #expect(WebSocketHandshake.acceptValue(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(try WebSocketHandshake.accept(Self.request()) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func responseSwitchesProtocols() {
        let response = WebSocketHandshake.response(accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.status.code == 101)
        #expect(response.headers["upgrade"] == "websocket")
        #expect(response.headers.containsToken("upgrade", in: "Connection"))
        #expect(response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test(arguments: [
        ("Upgrade", "WebSocket"), ("Upgrade", "WEBSOCKET"), ("Connection", "keep-alive, Upgrade"),
        ("Connection", "UPGRADE"), ("Sec-WebSocket-Version", " 13 "), ("Sec-WebSocket-Key", " \(key) "),
    ])
    func acceptsVariants(name: String, value: String) throws {
        #expect(try WebSocketHandshake.accept(Self.request(replacing: (name, value))) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func acceptsNewerHTTPVersion() throws {
        _ = try WebSocketHandshake.accept(Self.request(version: HTTPVersion(major: 2, minor: 0)))
    }

    @Test func rejectsOtherMethods() {
        #expect(throws: WebSocketHandshakeError.methodNotGet) {
            try WebSocketHandshake.accept(Self.request(method: .post))
        }
        #expect(WebSocketHandshakeError.methodNotGet.response.status.code == 405)
        #expect(WebSocketHandshakeError.methodNotGet.response.headers["Allow"] == "GET")
    }

    @Test func rejectsHTTP1_0() {
        #expect(throws: WebSocketHandshakeError.httpVersionTooOld) {
            try WebSocketHandshake.accept(Self.request(version: .http1_0))
        }
    }

    @Test(arguments: [("Upgrade", nil), ("Upgrade", "h2c"), ("Upgrade", "websockets")] as [(String, String?)])
    func rejectsMissingUpgrade(name: String, value: String?) {
        let head = value.map { Self.request(replacing: (name, $0)) } ?? Self.request(dropping: name)
        #expect(throws: WebSocketHandshakeError.missingUpgradeWebSocket) { try WebSocketHandshake.accept(head) }
    }

    @Test(arguments: [nil, "keep-alive", "upgrades", "close"] as [String?])
    func rejectsMissingConnectionUpgrade(value: String?) {
        let head = value.map { Self.request(replacing: ("Connection", $0)) } ?? Self.request(dropping: "Connection")
        #expect(throws: WebSocketHandshakeError.missingConnectionUpgrade) { try WebSocketHandshake.accept(head) }
    }

    @Test(arguments: [nil, "8", "12", "14", "13, 8", ""] as [String?])
    func rejectsOtherVersionsWith426(value: String?) {
        let head =
            value.map { Self.request(replacing: ("Sec-WebSocket-Version", $0)) }
            ?? Self.request(dropping: "Sec-WebSocket-Version")
        #expect(throws: WebSocketHandshakeError.unsupportedVersion) { try WebSocketHandshake.accept(head) }
        let response = WebSocketHandshakeError.unsupportedVersion.response
        #expect(response.status.code == 426)
        #expect(response.headers["Sec-WebSocket-Version"] == "13")
    }

    @Test(
        arguments: [
            nil, "", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZQ===", "dGhlIHNhbXBsZSBub25j",
            "dGhlIHNhbXBsZSBub25jZSEh", "dGhlIHNhbXBs ZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZQ!=", "not a key",
        ] as [String?])
    func rejectsBadKeys(value: String?) {
        let head =
            value.map { Self.request(replacing: ("Sec-WebSocket-Key", $0)) }
            ?? Self.request(dropping: "Sec-WebSocket-Key")
        #expect(throws: WebSocketHandshakeError.invalidKey) { try WebSocketHandshake.accept(head) }
        #expect(WebSocketHandshakeError.invalidKey.response.status.code == 400)
    }

    @Test func rejectsRepeatedKey() {
        let head = Self.request(adding: ("Sec-WebSocket-Key", "AQIDBAUGBwgJCgsMDQ4PEA=="))
        #expect(throws: WebSocketHandshakeError.invalidKey) { try WebSocketHandshake.accept(head) }
    }

    @Test func clientKeysAreFreshBase64Of16Bytes() {
        var generator = SplitMix64(seed: 6455)
        let first = WebSocketHandshake.makeKey(using: &generator)
        let second = WebSocketHandshake.makeKey(using: &generator)
        #expect(first != second)
        for key in [first, second] {
            #expect(key.utf8.count == 24)
            #expect(Base64.decode(Array(key.utf8))?.count == 16)
        }
    }

    @Test func clientRequestPassesServerCheck() throws {
        var generator = SplitMix64(seed: 1)
        let key = WebSocketHandshake.makeKey(using: &generator)
        let head = HTTPRequestHead(
            method: .get, target: "/", headers: WebSocketHandshake.requestHeaders(host: "h", key: key))
        let accept = try WebSocketHandshake.accept(head)
        try WebSocketHandshake.checkResponse(WebSocketHandshake.response(accept: accept), key: key)
    }

    @Test func clientRejectsBadResponses() {
        let good = WebSocketHandshake.response(accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(throws: WebSocketHandshakeError.unexpectedStatus(200)) {
            try WebSocketHandshake.checkResponse(HTTPResponseHead(status: .ok, headers: good.headers), key: Self.key)
        }
        #expect(throws: WebSocketHandshakeError.acceptMismatch) {
            try WebSocketHandshake.checkResponse(good, key: "AQIDBAUGBwgJCgsMDQ4PEA==")
        }
        var missing = good
        missing.headers.remove(name: "Sec-WebSocket-Accept")
        #expect(throws: WebSocketHandshakeError.acceptMismatch) {
            try WebSocketHandshake.checkResponse(missing, key: Self.key)
        }
        var noUpgrade = good
        noUpgrade.headers.remove(name: "Upgrade")
        #expect(throws: WebSocketHandshakeError.missingUpgradeWebSocket) {
            try WebSocketHandshake.checkResponse(noUpgrade, key: Self.key)
        }
        var noConnection = good
        noConnection.headers.replaceOrAdd(name: "Connection", value: "close")
        #expect(throws: WebSocketHandshakeError.missingConnectionUpgrade) {
            try WebSocketHandshake.checkResponse(noConnection, key: Self.key)
        }
        var extended = good
        extended.headers.add(name: "Sec-WebSocket-Extensions", value: "permessage-deflate")
        #expect(throws: WebSocketHandshakeError.unexpectedNegotiation) {
            try WebSocketHandshake.checkResponse(extended, key: Self.key)
        }
    }

    @Test func descriptionsQuoteNoHeaderValues() {
        let errors: [WebSocketHandshakeError] = [
            .methodNotGet, .httpVersionTooOld, .missingUpgradeWebSocket, .missingConnectionUpgrade, .unsupportedVersion,
            .invalidKey, .unexpectedStatus(302), .acceptMismatch, .unexpectedNegotiation,
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(errors.allSatisfy { !$0.description.contains(Self.key) })
    }
}
