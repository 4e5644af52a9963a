import BmobWire
import Testing

/// ``SocketIOHandshake`` answers, session ids, and ``SocketIOPath`` request targets.
@Suite struct SocketIOHandshakeTests {
    @Test func makesTheAnswerClientsExpect() {
        let handshake = SocketIOHandshake(sid: "4d4f185e96a7b", heartbeatTimeout: 60, closeTimeout: 60)
        #expect(handshake.encoded == "4d4f185e96a7b:60:60:websocket")
        #expect(handshake.supportsWebSocket)
    }

    @Test(arguments: [
        (
            "4d4f185e96a7b:60:60:websocket",
            SocketIOHandshake(sid: "4d4f185e96a7b", heartbeatTimeout: 60, closeTimeout: 60)
        ),
        (
            "1234567890:25:60:websocket,xhr-polling\n",
            SocketIOHandshake(
                sid: "1234567890", heartbeatTimeout: 25, closeTimeout: 60, transports: ["websocket", "xhr-polling"])
        ),
        (
            "a_b-C::60:xhr-polling",
            SocketIOHandshake(sid: "a_b-C", heartbeatTimeout: nil, closeTimeout: 60, transports: ["xhr-polling"])
        ),
        ("s:0::websocket", SocketIOHandshake(sid: "s", heartbeatTimeout: 0, closeTimeout: nil)),
    ])
    func parsesAnswers(text: String, expected: SocketIOHandshake) throws {
        let handshake = try SocketIOHandshake(parsing: text)
        #expect(handshake == expected)
        #expect(try SocketIOHandshake(parsing: handshake.encoded) == handshake)
    }

    @Test func pollingOnlyServersAreDetected() throws {
        #expect(try !SocketIOHandshake(parsing: "abc:60:60:xhr-polling,jsonp-polling").supportsWebSocket)
    }

    @Test(arguments: [
        "", "abc", "abc:60:60", "abc:60:60:websocket:x", ":60:60:websocket", "a b:60:60:websocket",
        "a/b:60:60:websocket", "abc:6x:60:websocket", "abc:60:-1:websocket", "abc:1234567890:60:websocket",
        "abc:60:60:", "abc:60:60:websocket,", "abc:60:60:web socket", "ab%2F:60:60:websocket",
        "abc:\u{301}60:60:websocket", "abc:60:60:websocket\u{301}",
    ])
    func rejectsMalformedAnswers(text: String) {
        do {
            _ = try SocketIOHandshake(parsing: text)
            Issue.record("accepted a malformed handshake")
        } catch {
            #expect(error.code == .invalidHandshake)
        }
    }

    @Test func sessionIDCharacters() {
        #expect(SocketIOHandshake.isValidSID("4d4f185e96a7b"))
        #expect(SocketIOHandshake.isValidSID("1580398012345678901"))
        #expect(SocketIOHandshake.isValidSID("Az09-_"))
        #expect(SocketIOHandshake.isValidSID(String(repeating: "a", count: 128)))
        #expect(!SocketIOHandshake.isValidSID(String(repeating: "a", count: 129)))
        for bad in ["", "a:b", "a/b", "a?b", "a%b", "a.b", "a b", "é", "a\u{0}"] {
            #expect(!SocketIOHandshake.isValidSID(bad), "\(bad)")
        }
    }

    @Test func madeSessionIDsAreValidAndVary() {
        var generator = SplitMix64(seed: 42)
        let first = SocketIOHandshake.makeSID(using: &generator)
        let second = SocketIOHandshake.makeSID(using: &generator)
        #expect(first.count == 24 && SocketIOHandshake.isValidSID(first))
        #expect(first != second)
        var again = SplitMix64(seed: 42)
        #expect(SocketIOHandshake.makeSID(using: &again) == first)
    }

    @Test(arguments: [
        ("/socket.io/1/?t=1700000000000", SocketIOPath.handshake),
        ("/socket.io/1/", .handshake),
        ("/socket.io/1", .handshake),
        ("/socket.io/1?t=1", .handshake),
        ("/socket.io/1/websocket/4d4f185e96a7b", .websocket(sid: "4d4f185e96a7b")),
        ("/socket.io/1/websocket/4d4f185e96a7b/", .websocket(sid: "4d4f185e96a7b")),
        ("/socket.io/1/websocket/abc?t=5&x=y", .websocket(sid: "abc")),
        ("/socket.io/1/websocket/abc?\u{301}", .websocket(sid: "abc")),
    ])
    func recognisesPaths(target: String, expected: SocketIOPath) {
        #expect(SocketIOPath(target: target) == expected)
        #expect(SocketIOPath(target: expected.path) == expected)
    }

    @Test(arguments: [
        "/", "/socket.io", "/socket.io/", "/socket.io/2/", "/socket.io/10/", "/socket.io/1/websocket",
        "/socket.io/1/websocket/", "/socket.io/1/websocket/a:b", "/socket.io/1/websocket/a/b",
        "/socket.io/1/websocket/a%2Fb", "/socket.io/1/xhr-polling/abc", "/SOCKET.IO/1/", "socket.io/1/",
        "/x/socket.io/1/", "/socket.io/1//", "?/socket.io/1/", "/socket.io/1\u{301}/",
        "/socket.io/1/websocket/a\u{301}",
    ])
    func rejectsOtherTargets(target: String) {
        #expect(SocketIOPath(target: target) == nil)
    }

    @Test func buildsTheTargetsClientsRequest() {
        #expect(SocketIOPath.handshakeTarget(milliseconds: 1_700_000_000_123) == "/socket.io/1/?t=1700000000123")
        #expect(SocketIOPath.websocket(sid: "abc").path == "/socket.io/1/websocket/abc")
        #expect(SocketIOPath(target: SocketIOPath.handshakeTarget(milliseconds: 1)) == .handshake)
    }
}
