import BmobWire
import Testing

/// ``PusherSocketId`` and ``PusherCloseCode``.
@Suite struct PusherSocketIdTests {
    @Test(arguments: ["123.456", "0.0", "1234.1234", "00.01", "18446744073709551615.18446744073709551615"])
    func valid(text: String) throws {
        #expect(try PusherSocketId(validating: text).rawValue == text)
    }

    @Test(arguments: [
        "", ".", "1.", ".1", "1", "1.2.3", "1..2", "a.b", "1.2 ", " 1.2", "+1.2", "-1.2", "1,2", "1.2\n", "١.٢",
        "１.２", "1.2:private-x", "123456789012345678901.1", "1.123456789012345678901",
    ])
    func invalid(text: String) {
        #expect(!PusherSocketId.isValid(text))
        #expect {
            try PusherSocketId(validating: text)
        } throws: { error in
            guard let error = error as? PusherProtocolError else { return false }
            return error.kind == .invalidSocketId && !error.message.isEmpty
        }
    }

    @Test func randomIdsAreValidAndDiffer() {
        let ids = (0..<100).map { _ in PusherSocketId.random() }
        for id in ids { #expect(PusherSocketId.isValid(id.rawValue)) }
        #expect(Set(ids).count > 95)
        #expect(PusherSocketId(1, 2).rawValue == "1.2")
    }

    @Test func closeCodeActions() {
        #expect(PusherCloseCode.sslOnly.action == .refused)
        #expect(PusherCloseCode.connectionUnauthorized.action == .refused)
        #expect(PusherCloseCode(rawValue: 4099).action == .refused)
        #expect(PusherCloseCode.overCapacity.action == .backoff)
        #expect(PusherCloseCode(rawValue: 4199).action == .backoff)
        #expect(PusherCloseCode.genericReconnectImmediately.action == .immediate)
        #expect(PusherCloseCode.pongNotReceived.action == .immediate)
        #expect(PusherCloseCode.closedAfterInactivity.action == .immediate)
        #expect(PusherCloseCode.clientEventRejected.action == .other)
        #expect(PusherCloseCode.serverError.action == .other)
        #expect(PusherCloseCode(rawValue: 1000).action == .other)
        #expect(PusherCloseCode(rawValue: 3999).action == .other)
        #expect(PusherCloseCode.applicationDoesNotExist.rawValue == 4001)
        #expect(PusherCloseCode.connectionUnauthorized.meaning == "Connection is unauthorized")
        #expect(PusherCloseCode(rawValue: 4050).meaning == "Connection refused")
        #expect(PusherCloseCode.pongNotReceived.webSocketCloseCode.rawValue == 4201)
        #expect(PusherCloseCode.pongNotReceived.webSocketCloseCode.isSendable)
        #expect(PusherCloseCode.pongNotReceived.description == "4201")
    }
}
