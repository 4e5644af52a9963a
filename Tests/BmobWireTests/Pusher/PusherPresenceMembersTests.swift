import BmobWire
import Testing

/// ``PusherPresenceMembers``: one member per user id however many sockets, the added/removed signals, the
/// presence data and the bounds.
@Suite struct PusherPresenceMembersTests {
    @Test func membersBySocket() throws {
        var members = PusherPresenceMembers()
        let a1 = PusherSocketId(1, 1)
        let a2 = PusherSocketId(1, 2)
        let b = PusherSocketId(2, 1)
        #expect(try members.add(socket: a1, userId: "a", userInfo: ["name": "A"]))
        #expect(try !members.add(socket: a2, userId: "a", userInfo: ["name": "other"]))
        #expect(try !members.add(socket: a1, userId: "a", userInfo: nil))  // again: no change
        #expect(try members.add(socket: b, userId: "b", userInfo: nil))
        #expect(members.count == 2)
        #expect(members.socketCount == 3)
        #expect(members.ids == ["a", "b"])
        #expect(members.hash == ["a": ["name": "A"], "b": .null])  // the first socket's info stays
        #expect(members.userId(of: a2) == "a")
        #expect(members.contains("a") && !members.contains("c"))
        #expect(members.subscriptionData == ["presence": ["ids": ["a", "b"], "hash": ["a": ["name": "A"], "b": nil], "count": 2]])

        #expect(members.remove(socket: a1) == nil)  // a2 remains
        #expect(members.remove(socket: a1) == nil)  // not subscribed any more
        #expect(members.remove(socket: PusherSocketId(9, 9)) == nil)
        #expect(members.remove(socket: a2) == "a")
        #expect(members.count == 1 && !members.contains("a"))
        #expect(members.remove(socket: b) == "b")
        #expect(members.isEmpty && members.socketCount == 0)
        #expect(members.subscriptionData == ["presence": ["ids": [], "hash": [:], "count": 0]])
    }

    @Test func socketCannotChangeUser() throws {
        var members = PusherPresenceMembers()
        try members.add(socket: PusherSocketId(1, 1), userId: "a", userInfo: nil)
        let before = members
        #expect {
            try members.add(socket: PusherSocketId(1, 1), userId: "b", userInfo: nil)
        } throws: { error in
            (error as? PusherProtocolError)?.kind == .invalidChannelData
        }
        #expect(members == before)
    }

    @Test func memberLimit() throws {
        var members = PusherPresenceMembers(limits: .init(maximumMembers: 2))
        try members.add(socket: PusherSocketId(1, 1), userId: "a", userInfo: nil)
        try members.add(socket: PusherSocketId(1, 2), userId: "b", userInfo: nil)
        // Another socket of an existing member is fine.
        #expect(try !members.add(socket: PusherSocketId(1, 3), userId: "b", userInfo: nil))
        let before = members
        #expect {
            try members.add(socket: PusherSocketId(1, 4), userId: "c", userInfo: nil)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .presenceLimitReached && !error.closesConnection && !error.message.isEmpty
        }
        #expect(members == before)
        #expect(PusherPresenceMembers().limits.maximumMembers == 100)
    }

    @Test func userIdAndInfoLimits() throws {
        var members = PusherPresenceMembers()
        try members.add(socket: PusherSocketId(1, 1), userId: String(repeating: "a", count: 128), userInfo: nil)
        for userId in ["", String(repeating: "b", count: 129)] {
            #expect {
                try members.add(socket: PusherSocketId(2, 1), userId: userId, userInfo: nil)
            } throws: { error in
                (error as? PusherProtocolError)?.kind == .presenceMemberTooLarge
            }
        }
        // 1024 bytes of compact JSON: {"n":"…"} is 8 bytes plus the string.
        let fits: JSONValue = ["n": .string(String(repeating: "x", count: 1016))]
        #expect(fits.jsonBytes.count == 1024)
        try members.add(socket: PusherSocketId(3, 1), userId: "c", userInfo: fits)
        let tooLarge: JSONValue = ["n": .string(String(repeating: "x", count: 1017))]
        #expect {
            try members.add(socket: PusherSocketId(4, 1), userId: "d", userInfo: tooLarge)
        } throws: { error in
            (error as? PusherProtocolError)?.kind == .presenceMemberTooLarge
        }
        #expect(members.count == 2)
    }
}
