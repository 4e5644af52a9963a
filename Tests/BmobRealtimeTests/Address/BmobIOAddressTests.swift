import BmobCore
import Testing

/// `Bmob.resetIODomain`'s parsing and the realtime address priority, on isolated clients.
@Suite("Realtime address: resetIODomain and priority")
struct BmobIOAddressTests {
    @Test(
        "valid forms: http, https, ws, wss, bare host:port; scheme case, spaces and one trailing slash tolerated",
        arguments: [
            ("http://io.example.com:3010", false, "io.example.com", 3010),
            ("https://realtime.example.com:443", true, "realtime.example.com", 443),
            ("ws://127.0.0.1:8080", false, "127.0.0.1", 8080),
            ("wss://realtime.example.com", true, "realtime.example.com", nil),
            ("HTTPS://Realtime.Example.com/", true, "Realtime.Example.com", nil),
            ("  io.codenow.cn:3010 ", false, "io.codenow.cn", 3010),
            ("localhost", false, "localhost", nil),
            ("http://[::1]:9000", false, "::1", 9000),
            ("wss://[2001:db8::1]", true, "2001:db8::1", nil),
        ] as [(String, Bool, String, Int?)])
    func validForms(text: String, secure: Bool, host: String, port: Int?) throws {
        let address = try #require(BmobIOAddress(parsing: text))
        #expect(address.isSecure == secure)
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test(
        "invalid forms: path, query, fragment, user information, other schemes, empty host, bad ports",
        arguments: [
            "", "   ", "https://", "http://:3010", "https://realtime.example.com/socket.io",
            "https://realtime.example.com/path/", "http://host:3010?x=1", "http://host#frag", "http://user@host",
            "http://user:pass@host:80", "ftp://host", "file:///tmp/x", "http://host:0", "http://host:65536",
            "http://host:port", "http://host:", "host:1:2", "http://ho st", "http://[::1", "http://[::1]x",
            "http://[zz::1]", "https://-bad.example.com", "//host:80",
        ])
    func invalidForms(text: String) {
        #expect(BmobIOAddress(parsing: text) == nil)
    }

    @Test("URLs built from an address: handshake, WebSocket and Origin keep the host and port")
    func derivedURLs() throws {
        let secure = try #require(BmobIOAddress(parsing: "wss://realtime.example.com:8443"))
        #expect(secure.handshakeURL(milliseconds: 1_700_000_000_123) == "https://realtime.example.com:8443/socket.io/1/?t=1700000000123")
        #expect(secure.webSocketURL(sid: "abc") == "wss://realtime.example.com:8443/socket.io/1/websocket/abc")
        #expect(secure.httpOrigin == "https://realtime.example.com:8443")
        let plain = try #require(BmobIOAddress(parsing: "io.codenow.cn:3010"))
        #expect(plain.handshakeURL(milliseconds: 5) == "http://io.codenow.cn:3010/socket.io/1/?t=5")
        #expect(plain.webSocketURL(sid: "s") == "ws://io.codenow.cn:3010/socket.io/1/websocket/s")
        #expect(plain.httpOrigin == "http://io.codenow.cn:3010")
        let ipv6 = try #require(BmobIOAddress(parsing: "http://[::1]:9000"))
        #expect(ipv6.webSocketURL(sid: "s") == "ws://[::1]:9000/socket.io/1/websocket/s")
        #expect(BmobIOAddress.fallback.httpOrigin == "http://io.codenow.cn:3010")
    }

    @Test("priority: custom address, then init's io, then http://io.codenow.cn:3010")
    func priority() throws {
        let custom = try #require(BmobIOAddress(parsing: "https://custom.example.com"))
        #expect(BmobIOAddress.resolve(custom: custom, initIO: "http://init.example.com:3010") == custom)
        #expect(
            BmobIOAddress.resolve(custom: nil, initIO: "http://init.example.com:3010")
                == BmobIOAddress(isSecure: false, host: "init.example.com", port: 3010))
        #expect(BmobIOAddress.resolve(custom: nil, initIO: "not an address/with a path") == .fallback)
        #expect(BmobIOAddress.resolve(custom: nil, initIO: nil) == .fallback)
    }

    @Test("resetIODomain: valid sets, invalid throws invalidParameter and keeps the old value, nil clears")
    func resetIODomain() throws {
        let client = BmobClient()
        #expect(client.customRealtimeAddress == nil)
        #expect(client.realtimeAddress == .fallback)

        try client.resetIODomain("https://realtime.example.com:443")
        let expected = BmobIOAddress(isSecure: true, host: "realtime.example.com", port: 443)
        #expect(client.customRealtimeAddress == expected)
        #expect(client.realtimeAddress == expected)

        for invalid in ["https://realtime.example.com/path", "", "ftp://x", "http://user@x"] {
            #expect {
                try client.resetIODomain(invalid)
            } throws: { error in
                if case .invalidParameter? = error as? BmobError { return true }
                return false
            }
            #expect(client.customRealtimeAddress == expected)
        }

        try client.resetIODomain(nil)
        #expect(client.customRealtimeAddress == nil)
        #expect(client.realtimeAddress == .fallback)
    }
}
