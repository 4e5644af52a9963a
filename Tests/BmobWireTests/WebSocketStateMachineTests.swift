import BmobWire
import Testing

/// ``WebSocketStateMachine``: bytes in, actions out — fragmentation, control frames, UTF-8, sizes, closing.
@Suite struct WebSocketStateMachineTests {
    typealias Action = WebSocketStateMachine.Action

    static let key = WebSocketMaskingKey([0x11, 0x22, 0x33, 0x44])

    /// The wire bytes of a frame a client sends (masked).
    static func client(_ opcode: WebSocketOpcode, _ payload: [UInt8] = [], fin: Bool = true) -> [UInt8] {
        WebSocketFrame(fin: fin, opcode: opcode, maskingKey: key, payload: payload).encoded()
    }

    static func client(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> [UInt8] {
        client(opcode, Array(text.utf8), fin: fin)
    }

    /// Feeds `bytes` to `machine` in pieces of `chunk` bytes and collects every action.
    static func run(_ machine: inout WebSocketStateMachine, _ bytes: [UInt8], chunk: Int? = nil) -> [Action] {
        var actions: [Action] = []
        let step = max(chunk ?? bytes.count, 1)
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + step)
            machine.bytesReceived(bytes[offset..<end])
            offset = end
            while let action = machine.nextAction() { actions.append(action) }
        } while offset < bytes.count
        return actions
    }

    static func server(_ bytes: [UInt8], maximum: Int = 1 << 20) -> ([Action], WebSocketStateMachine) {
        var machine = WebSocketStateMachine(role: .server, maximumMessageSize: maximum)
        let actions = run(&machine, bytes)
        return (actions, machine)
    }

    // MARK: Messages

    @Test func singleFrameMessages() {
        let (actions, machine) = Self.server(
            Self.client(.text, "Hello") + Self.client(.binary, [1, 2, 3]) + Self.client(.text, ""))
        #expect(actions == [.deliver(.text("Hello")), .deliver(.binary([1, 2, 3])), .deliver(.text(""))])
        #expect(machine.state == .open)
    }

    @Test func fragmentedMessagesWithInterleavedControlFrames() {
        let bytes =
            Self.client(.text, "Hel", fin: false) + Self.client(.ping, "p1")
            + Self.client(.continuation, "l", fin: false)
            + Self.client(.pong, "x") + Self.client(.continuation, "o") + Self.client(.binary, [1], fin: false)
            + Self.client(.continuation, [], fin: false) + Self.client(.ping, []) + Self.client(.continuation, [2])
        let (actions, _) = Self.server(bytes)
        #expect(
            actions == [
                .send(WebSocketFrame(opcode: .pong, payload: Array("p1".utf8))), .deliver(.text("Hello")),
                .send(WebSocketFrame(opcode: .pong)), .deliver(.binary([1, 2])),
            ])
    }

    /// The same conversation split at every byte gives the same actions.
    @Test func splittingAnywhereGivesTheSameActions() {
        let bytes =
            Self.client(.text, "κόσ", fin: false) + Self.client(.ping, "ping") + Self.client(.continuation, "με")
            + Self.client(.binary, [UInt8](repeating: 5, count: 130))
            + Self.client(.close, [0x03, 0xE8] + Array("bye".utf8))
        var whole = WebSocketStateMachine(role: .server)
        let expected = Self.run(&whole, bytes)
        #expect(expected.count == 4)
        #expect(expected.last == .send(.close(code: .normalClosure)))
        for chunk in [1, 2, 3, 7] {
            var machine = WebSocketStateMachine(role: .server)
            #expect(Self.run(&machine, bytes, chunk: chunk) == expected, "chunk \(chunk)")
        }
        for split in 0...bytes.count {
            var machine = WebSocketStateMachine(role: .server)
            machine.bytesReceived(bytes[..<split])
            var actions: [Action] = []
            while let action = machine.nextAction() { actions.append(action) }
            machine.bytesReceived(bytes[split...])
            while let action = machine.nextAction() { actions.append(action) }
            #expect(actions == expected, "split at \(split)")
        }
    }

    @Test func newDataFrameInsideFragmentedMessage() {
        for opcode in [WebSocketOpcode.text, .binary] {
            let (actions, machine) = Self.server(Self.client(.text, "a", fin: false) + Self.client(opcode, "b"))
            #expect(actions == [.close(.protocolError, reason: "new message inside a fragmented message")])
            #expect(machine.state == .closed)
        }
    }

    @Test func continuationWithoutStart() {
        for fin in [true, false] {
            let (actions, _) = Self.server(Self.client(.continuation, "a", fin: fin))
            #expect(actions.map(Self.code) == [.protocolError])
        }
        // Also right after a complete message.
        let (actions, _) = Self.server(Self.client(.text, "a") + Self.client(.continuation, "b"))
        #expect(actions.map(Self.code) == [nil, .protocolError])
    }

    @Test func decoderErrorsBecomeCloseActions() {
        #expect(Self.server(WebSocketFrame(opcode: .text).encoded()).0.map(Self.code) == [.protocolError])
        #expect(Self.server([0xC1, 0x80, 0, 0, 0, 0]).0.map(Self.code) == [.protocolError])
        #expect(Self.server([0x89, 0xFE, 0, 126]).0.map(Self.code) == [.protocolError])
    }

    @Test func clientRoleTakesUnmaskedFramesOnly() {
        var machine = WebSocketStateMachine(role: .client)
        #expect(
            Self.run(&machine, WebSocketFrame(opcode: .text, payload: Array("hi".utf8)).encoded()) == [
                .deliver(.text("hi"))
            ])
        #expect(Self.run(&machine, Self.client(.text, "hi")).map(Self.code) == [.protocolError])
    }

    // MARK: UTF-8

    @Test func multiByteCharactersSplitAcrossFragments() {
        let bytes = Array("€𝄞".utf8)  // E2 82 AC F0 9D 84 9E
        for split in 1..<bytes.count {
            let (actions, _) = Self.server(
                Self.client(.text, Array(bytes[..<split]), fin: false)
                    + Self.client(.continuation, Array(bytes[split...])))
            #expect(actions == [.deliver(.text("€𝄞"))], "split at \(split)")
        }
    }

    @Test(
        arguments: [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x82], [0x61, 0xF0, 0x9D],
        ] as [[UInt8]])
    func invalidTextIs1007(bytes: [UInt8]) {
        #expect(Self.server(Self.client(.text, bytes)).0.map(Self.code) == [.invalidPayloadData])
        // Fragmented: a truncated sequence at the end of the message is only caught by the last frame.
        let fragmented = Self.client(.text, bytes, fin: false) + Self.client(.continuation, [])
        #expect(Self.server(fragmented).0.map(Self.code) == [.invalidPayloadData])
    }

    @Test func invalidTextFailsFastInFirstFragment() {
        // Rejected before the message ends (Autobahn 6.4): no final frame ever arrives.
        let (actions, machine) = Self.server(Self.client(.text, [0xCE, 0xBA, 0xED, 0xA0, 0x80], fin: false))
        #expect(actions.map(Self.code) == [.invalidPayloadData])
        #expect(machine.state == .closed)
    }

    @Test func invalidBytesInContinuation() {
        let bytes =
            Self.client(.text, "ok", fin: false) + Self.client(.continuation, [0xE2, 0x82], fin: false)
            + Self.client(.continuation, [0x41])
        #expect(Self.server(bytes).0.map(Self.code) == [.invalidPayloadData])
    }

    @Test func binaryIsNotChecked() {
        #expect(Self.server(Self.client(.binary, [0xFF, 0xC0])).0 == [.deliver(.binary([0xFF, 0xC0]))])
    }

    // MARK: Sizes

    @Test func maximumSizeAcrossFragments() {
        let at =
            Self.client(.binary, [UInt8](repeating: 1, count: 100), fin: false)
            + Self.client(.continuation, [UInt8](repeating: 2, count: 100))
        #expect(
            Self.server(at, maximum: 200).0 == [
                .deliver(.binary([UInt8](repeating: 1, count: 100) + [UInt8](repeating: 2, count: 100)))
            ])
        let tooBig =
            Self.client(.text, String(repeating: "a", count: 150), fin: false)
            + Self.client(.continuation, String(repeating: "b", count: 51))
        #expect(Self.server(tooBig, maximum: 200).0.map(Self.code) == [.messageTooBig])
        // A single frame over the limit fails from its header.
        #expect(
            Self.server(Array(Self.client(.binary, [UInt8](repeating: 0, count: 201)).prefix(4)), maximum: 200).0.map(
                Self.code) == [.messageTooBig])
    }

    // MARK: Closing

    @Test func pingIsAnsweredWithSamePayload() {
        let payload = (0..<125).map { UInt8($0) }
        #expect(Self.server(Self.client(.ping, payload)).0 == [.send(WebSocketFrame(opcode: .pong, payload: payload))])
    }

    @Test func peerCloseIsEchoed() {
        let (actions, machine) = Self.server(
            Self.client(.close, [0x0F, 0xA0] + Array("done é".utf8)) + Self.client(.text, "late"))
        #expect(actions == [.send(.close(code: WebSocketCloseCode(rawValue: 4000)))])
        #expect(machine.state == .closed)
        #expect(machine.receivedCloseCode == WebSocketCloseCode(rawValue: 4000))
        #expect(machine.receivedCloseReason == "done é")
    }

    @Test func emptyCloseIsAnsweredWithEmptyClose() {
        let (actions, machine) = Self.server(Self.client(.close))
        #expect(actions == [.send(WebSocketFrame(opcode: .close))])
        #expect(machine.state == .closed)
        #expect(machine.receivedCloseCode == nil)
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func invalidCloseCodes(code: UInt16) {
        let (actions, machine) = Self.server(Self.client(.close, [UInt8(code >> 8), UInt8(code & 0xFF)]))
        #expect(actions.map(Self.code) == [.protocolError])
        #expect(machine.receivedCloseCode == nil)
    }

    @Test(
        arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999]
            as [UInt16])
    func validCloseCodesAreEchoed(code: UInt16) {
        let (actions, _) = Self.server(Self.client(.close, [UInt8(code >> 8), UInt8(code & 0xFF)]))
        #expect(actions == [.send(.close(code: WebSocketCloseCode(rawValue: code)))])
    }

    @Test func oneByteCloseIs1002() {
        #expect(Self.server(Self.client(.close, [0x03])).0.map(Self.code) == [.protocolError])
    }

    @Test func invalidCloseReasonIs1007() {
        #expect(
            Self.server(Self.client(.close, [0x03, 0xE8, 0xCE, 0xBA, 0xED, 0xA0, 0x80])).0.map(Self.code) == [
                .invalidPayloadData
            ])
        #expect(Self.server(Self.client(.close, [0x03, 0xE8, 0xE2, 0x82])).0.map(Self.code) == [.invalidPayloadData])
    }

    @Test func closeInsideFragmentedMessageIsAllowed() {
        let (actions, _) = Self.server(Self.client(.text, "par", fin: false) + Self.client(.close, [0x03, 0xE8]))
        #expect(actions == [.send(.close(code: .normalClosure))])
    }

    @Test func ourCloseThenPeerReply() {
        var machine = WebSocketStateMachine(role: .server)
        #expect(machine.closeRequested(code: .goingAway, reason: "restart") == .close(.goingAway, reason: "restart"))
        #expect(machine.state == .closing)
        #expect(machine.closeRequested() == nil)
        // While closing, data and pings are dropped, and the peer's close ends the handshake.
        let actions = Self.run(
            &machine, Self.client(.text, "x") + Self.client(.ping, "p") + Self.client(.close, [0x03, 0xE9]))
        #expect(actions == [.closed])
        #expect(machine.state == .closed)
        #expect(machine.receivedCloseCode == .goingAway)
        #expect(Self.run(&machine, Self.client(.text, "after")) == [])
    }

    @Test func garbageWhileClosingEndsWithoutSecondClose() {
        var machine = WebSocketStateMachine(role: .server)
        _ = machine.closeRequested()
        #expect(Self.run(&machine, [0x81, 0x00]) == [.closed])
        #expect(machine.state == .closed)
    }

    @Test func connectionLoss() {
        var machine = WebSocketStateMachine(role: .client)
        machine.connectionClosed()
        #expect(machine.state == .closed)
        #expect(machine.closeRequested() == nil)
        #expect(Self.run(&machine, WebSocketFrame(opcode: .text, payload: [0x61]).encoded()) == [])
    }

    @Test func nothingAfterFailure() {
        let (actions, machine) = Self.server([0x81, 0x00] + Self.client(.text, "x"))
        #expect(actions.count == 1)
        #expect(machine.state == .closed)
    }

    /// The close code an action sends, or `nil` for other actions.
    static func code(_ action: Action) -> WebSocketCloseCode? {
        if case .close(let code, _) = action { return code }
        return nil
    }
}
