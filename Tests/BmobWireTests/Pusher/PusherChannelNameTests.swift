import BmobWire
import Testing

/// ``PusherChannelName``: kinds by prefix, the character set and length, the server-to-user form, and the
/// refused encrypted and cache kinds.
@Suite struct PusherChannelNameTests {
    @Test(arguments: [
        ("room-1", PusherChannelName.Kind.public),
        ("A-Za-z0-9_-=@,.;", .public),
        ("private-room", .private),
        ("private-", .private),
        ("presence-lobby", .presence),
        ("presence-", .presence),
        ("privateroom", .public),
        ("#server-to-user-u1", .serverToUser),
        ("#server-to-user-a=b@c,d.e;f_g-h", .serverToUser),
    ])
    func kinds(name: String, kind: PusherChannelName.Kind) throws {
        let channel = try PusherChannelName(validating: name)
        #expect(channel.kind == kind)
        #expect(channel.rawValue == name)
        #expect(channel.requiresAuthorization == (kind == .private || kind == .presence))
        #expect(channel.allowsClientEvents == channel.requiresAuthorization)
    }

    @Test func serverToUserId() throws {
        #expect(try PusherChannelName(validating: "#server-to-user-12345").serverToUserId == "12345")
        #expect(try PusherChannelName.serverToUser("u1").rawValue == "#server-to-user-u1")
        #expect(try PusherChannelName(validating: "room").serverToUserId == nil)
    }

    @Test func lengthLimit() throws {
        let longest = String(repeating: "a", count: PusherChannelName.maximumLength)
        #expect(try PusherChannelName(validating: longest).kind == .public)
        #expect(throws: PusherProtocolError.self) { try PusherChannelName(validating: longest + "a") }
        #expect(throws: PusherProtocolError.self) {
            try PusherChannelName(validating: String(repeating: "a", count: 1 << 20))
        }
    }

    @Test(arguments: [
        "", " ", "room 1", "room/1", "room:1", "room#1", "#room", "#server-to-user-", "#server-to-user-a b",
        "#server-to-user-#server-to-user-a", "é", "room\u{0}", "room\n", "ro\u{301}om", "ｒｏｏｍ", "*", "room?", "a'b",
        "\"", "{}", "private-room\u{200B}",
    ])
    func invalidNames(name: String) {
        #expect {
            try PusherChannelName(validating: name)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .invalidChannelName && !error.message.isEmpty && error.code == nil
        }
    }

    @Test(arguments: [
        "private-encrypted-room", "cache-room", "private-cache-room", "presence-cache-room", "private-encrypted-",
    ])
    func unsupportedKinds(name: String) {
        #expect {
            try PusherChannelName(validating: name)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .unsupportedChannel && !error.message.isEmpty
        }
    }

    /// Look-alikes of the refused prefixes are ordinary channels.
    @Test(arguments: ["cache", "private-encrypted", "privatecache-x", "mycache-x", "presence-encrypted-x"])
    func lookAlikesAreAccepted(name: String) throws {
        _ = try PusherChannelName(validating: name)
    }
}
