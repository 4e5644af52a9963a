import BmobWire
import Testing

/// ``PusherPresenceMembers``: one member per user id however many sockets, the added/removed signals, the
/// presence data and the bounds.
@Suite struct PusherPresenceMembersTests {
    /// The error `add` throws, or `nil` (and an issue) when it succeeds.
    static func refusal(
        _ members: inout PusherPresenceMembers, socket: PusherSocketId, userId: String, userInfo: JSONValue? = nil
    ) -> PusherProtocolError? {
        do {
            try members.add(socket: socket, userId: userId, userInfo: userInfo)
            Issue.record("add was accepted")
            return nil
        } catch {
            return error
        }
    }

    @Test func membersBySocket() throws {
        var members = PusherPresenceMembers()
        let a1 = PusherSocketId(1, 1)
        let a2 = PusherSocketId(1, 2)
        let b = PusherSocketId(2, 1)
        let addedA1 = try members.add(socket: a1, userId: "a", userInfo: ["name": "A"])
        let addedA2 = try members.add(socket: a2, userId: "a", userInfo: ["name": "other"])
        let addedA1Again = try members.add(socket: a1, userId: "a", userInfo: nil)  // no change
        let addedB = try members.add(socket: b, userId: "b", userInfo: nil)
        #expect(addedA1 && !addedA2 && !addedA1Again && addedB)
        #expect(members.count == 2)
        #expect(members.socketCount == 3)
        #expect(members.ids == ["a", "b"])
        #expect(members.hash == ["a": ["name": "A"], "b": .null])  // the first socket's info stays
        #expect(members.userId(of: a2) == "a")
        #expect(members.contains("a") && !members.contains("c"))
        #expect(
            members.subscriptionData == [
                "presence": ["ids": ["a", "b"], "hash": ["a": ["name": "A"], "b": nil], "count": 2]
            ])

        let removedA1 = members.remove(socket: a1)  // a2 remains
        let removedA1Again = members.remove(socket: a1)  // not subscribed any more
        let removedUnknown = members.remove(socket: PusherSocketId(9, 9))
        let removedA2 = members.remove(socket: a2)
        #expect(removedA1 == nil && removedA1Again == nil && removedUnknown == nil && removedA2 == "a")
        #expect(members.count == 1 && !members.contains("a"))
        let removedB = members.remove(socket: b)
        #expect(removedB == "b")
        #expect(members.isEmpty && members.socketCount == 0)
        #expect(members.subscriptionData == ["presence": ["ids": [], "hash": [:], "count": 0]])
    }

    @Test func socketCannotChangeUser() throws {
        var members = PusherPresenceMembers()
        try members.add(socket: PusherSocketId(1, 1), userId: "a", userInfo: nil)
        let before = members
        let refused = Self.refusal(&members, socket: PusherSocketId(1, 1), userId: "b")
        #expect(refused?.kind == .invalidChannelData)
        #expect(members == before)
    }

    @Test func memberLimit() throws {
        var members = PusherPresenceMembers(limits: .init(maximumMembers: 2))
        try members.add(socket: PusherSocketId(1, 1), userId: "a", userInfo: nil)
        try members.add(socket: PusherSocketId(1, 2), userId: "b", userInfo: nil)
        // Another socket of an existing member is fine.
        let addedB2 = try members.add(socket: PusherSocketId(1, 3), userId: "b", userInfo: nil)
        #expect(!addedB2)
        let before = members
        let refused = Self.refusal(&members, socket: PusherSocketId(1, 4), userId: "c")
        let error = try #require(refused)
        #expect(error.kind == .presenceLimitReached && !error.closesConnection && !error.message.isEmpty)
        #expect(members == before)
        #expect(PusherPresenceMembers().limits.maximumMembers == 100)
    }

    @Test func userIdAndInfoLimits() throws {
        var members = PusherPresenceMembers()
        try members.add(socket: PusherSocketId(1, 1), userId: String(repeating: "a", count: 128), userInfo: nil)
        for userId in ["", String(repeating: "b", count: 129)] {
            let refused = Self.refusal(&members, socket: PusherSocketId(2, 1), userId: userId)
            #expect(refused?.kind == .presenceMemberTooLarge)
        }
        // 1024 bytes of compact JSON: {"n":"…"} is 8 bytes plus the string.
        let fits: JSONValue = ["n": .string(String(repeating: "x", count: 1016))]
        #expect(fits.jsonBytes.count == 1024)
        try members.add(socket: PusherSocketId(3, 1), userId: "c", userInfo: fits)
        let tooLarge: JSONValue = ["n": .string(String(repeating: "x", count: 1017))]
        let refused = Self.refusal(&members, socket: PusherSocketId(4, 1), userId: "d", userInfo: tooLarge)
        #expect(refused?.kind == .presenceMemberTooLarge)
        #expect(members.count == 2)
    }
}
