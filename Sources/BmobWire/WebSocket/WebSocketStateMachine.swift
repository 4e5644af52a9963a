/// One WebSocket connection after the opening handshake, as a pure state machine: bytes in, actions out.
///
/// It owns a ``WebSocketFrameDecoder`` and adds the message rules of RFC 6455: reassembling fragmented text
/// and binary messages (a new data frame inside a fragmented message, or a continuation without a start,
/// is 1002), control frames between fragments, UTF-8 of text messages checked as fragments arrive (1007),
/// the maximum size of a whole message (1009), pings answered with pongs, and the closing handshake.
///
/// The driver (BmobHTTP after an upgrade, or the SDK's Linux client) does the I/O:
/// ```swift
/// machine.bytesReceived(chunk)
/// while let action = machine.nextAction() {
///     switch action {
///     case .deliver(let message): // hand to the application
///     case .send(let frame): // write frame (masked by a client)
///     case .close(let code, let reason): // write WebSocketFrame.close(code:reason:)
///     case .closed: break
///     }
///     if machine.state == .closed { /* close the connection */ }
/// }
/// ```
/// After performing any action, a driver whose machine is ``State-swift.enum/closed`` closes the TCP
/// connection: a server at once, a client after giving the server a moment to close first (§7.1.1). While
/// ``State-swift.enum/closing`` it keeps reading, with a timeout, until the peer's close frame arrives.
///
/// ## Topics
/// ### Events
/// - ``bytesReceived(_:)``
/// - ``nextAction()``
/// - ``frameReceived(_:)``
/// - ``closeRequested(code:reason:)``
/// - ``connectionClosed()``
package struct WebSocketStateMachine: Sendable {
    /// Where the closing handshake stands.
    package enum State: Sendable, Hashable {
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the peer's; received data is dropped.
        case closing
        /// The handshake finished or the connection failed: close the TCP connection.
        case closed
    }

    /// What the driver does next.
    package enum Action: Sendable, Hashable {
        /// Hand a complete message to the application.
        case deliver(WebSocketMessage)
        /// Write this frame: a pong answering a ping, or the close frame answering the peer's close (the
        /// state is then ``State-swift.enum/closed``). A client masks it first.
        case send(WebSocketFrame)
        /// Write a close frame with this code and reason (``WebSocketFrame/close(code:reason:)``): after
        /// ``closeRequested(code:reason:)`` the state is ``State-swift.enum/closing``; after a protocol
        /// error it is ``State-swift.enum/closed`` (the connection failed).
        case close(WebSocketCloseCode, reason: String)
        /// The closing handshake is over and nothing is left to write.
        case closed
    }

    /// The kind of data message being reassembled.
    private enum Fragmented: Sendable {
        case none
        case text
        case binary
    }

    /// Which end of the connection this machine works for.
    package let role: WebSocketRole
    /// The largest message accepted, in bytes, over all its fragments.
    package let maximumMessageSize: Int
    /// Where the closing handshake stands.
    package private(set) var state = State.open
    /// The status code of the peer's close frame, once received; `nil` before, or if it carried none (1005).
    package private(set) var receivedCloseCode: WebSocketCloseCode?
    /// The reason in the peer's close frame, once received.
    package private(set) var receivedCloseReason: String?

    private var decoder: WebSocketFrameDecoder
    private var fragmented = Fragmented.none
    private var message: [UInt8] = []
    private var validator = WebSocketUTF8Validator()

    /// A machine for an open connection.
    ///
    /// - Parameters:
    ///   - role: the end of the connection the machine works for.
    ///   - maximumMessageSize: the largest message accepted over all its fragments; at least 125.
    package init(role: WebSocketRole, maximumMessageSize: Int = 16 * 1024 * 1024) {
        self.role = role
        self.maximumMessageSize = maximumMessageSize
        self.decoder = WebSocketFrameDecoder(role: role, maximumMessageSize: maximumMessageSize)
    }

    /// Bytes received but not yet decoded into frames.
    package var bufferedByteCount: Int { decoder.bufferedByteCount }

    /// Adds bytes read from the connection; call ``nextAction()`` until it returns `nil` afterwards.
    ///
    /// - Parameter bytes: the next bytes of the stream, split anywhere.
    package mutating func bytesReceived(_ bytes: some Collection<UInt8>) {
        guard state != .closed else { return }
        decoder.append(bytes)
    }

    /// The next action for the bytes received so far, or `nil` when more bytes are needed (or the
    /// connection is closed).
    ///
    /// - Returns: the action to perform.
    package mutating func nextAction() -> Action? {
        while state != .closed {
            let frame: WebSocketFrame?
            do {
                frame = try decoder.next()
            } catch {
                return fail(error)
            }
            guard let frame else { return nil }
            if let action = frameReceived(frame) { return action }
        }
        return nil
    }

    /// Handles one frame as ``WebSocketFrameDecoder`` yields it (header rules already checked).
    ///
    /// - Parameter frame: the decoded frame.
    /// - Returns: the action to perform, or `nil` when there is nothing to do (a fragment, a pong).
    package mutating func frameReceived(_ frame: WebSocketFrame) -> Action? {
        switch state {
        case .closed:
            return nil
        case .closing:
            guard frame.opcode == .close else { return nil }
            if let (code, reason) = try? Self.parseClose(frame.payload) {
                receivedCloseCode = code
                receivedCloseReason = reason
            }
            state = .closed
            return .closed
        case .open:
            do {
                return try receive(frame)
            } catch {
                return fail(error)
            }
        }
    }

    /// The application asks to close the connection.
    ///
    /// - Parameters:
    ///   - code: the status code to send; must be ``WebSocketCloseCode/isSendable``.
    ///   - reason: a short UTF-8 reason, cut to fit the frame.
    /// - Returns: `.close` when the connection was open (the state is then ``State-swift.enum/closing``),
    ///   `nil` when a close is already under way.
    package mutating func closeRequested(code: WebSocketCloseCode = .normalClosure, reason: String = "") -> Action? {
        precondition(code.isSendable, "close code \(code) may not be sent")
        guard state == .open else { return nil }
        state = .closing
        return .close(code, reason: reason)
    }

    /// The TCP connection ended, or the close handshake timed out: nothing more is sent or received.
    package mutating func connectionClosed() {
        state = .closed
    }

    private mutating func fail(_ error: WebSocketProtocolError) -> Action {
        let wasOpen = state == .open
        state = .closed
        message = []
        return wasOpen ? .close(error.closeCode, reason: error.reason) : .closed
    }

    private mutating func receive(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Action? {
        switch frame.opcode {
        case .ping:
            return .send(WebSocketFrame(opcode: .pong, payload: frame.payload))
        case .pong:
            return nil
        case .close:
            let (code, reason) = try Self.parseClose(frame.payload)
            receivedCloseCode = code
            receivedCloseReason = reason
            state = .closed
            return .send(.close(code: code))
        case .text, .binary:
            guard fragmented == .none else {
                throw WebSocketProtocolError(.protocolError, "new message inside a fragmented message")
            }
            try checkSize(adding: frame.payload.count)
            let isText = frame.opcode == .text
            if isText {
                validator = WebSocketUTF8Validator()
                try validate(frame.payload, final: frame.fin)
            }
            if frame.fin {
                return .deliver(isText ? .text(String(decoding: frame.payload, as: UTF8.self)) : .binary(frame.payload))
            }
            fragmented = isText ? .text : .binary
            message = frame.payload
            return nil
        case .continuation:
            guard fragmented != .none else {
                throw WebSocketProtocolError(.protocolError, "continuation frame without a message to continue")
            }
            try checkSize(adding: message.count + frame.payload.count)
            if fragmented == .text { try validate(frame.payload, final: frame.fin) }
            message += frame.payload
            guard frame.fin else { return nil }
            let kind = fragmented
            let bytes = message
            fragmented = .none
            message = []
            return .deliver(kind == .text ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(bytes))
        }
    }

    private func checkSize(adding size: Int) throws(WebSocketProtocolError) {
        guard size <= maximumMessageSize else {
            throw WebSocketProtocolError(.messageTooBig, "message larger than the maximum message size")
        }
    }

    private mutating func validate(_ bytes: [UInt8], final: Bool) throws(WebSocketProtocolError) {
        guard validator.consume(bytes), !final || validator.isComplete else {
            throw WebSocketProtocolError(.invalidPayloadData, "text message is not valid UTF-8")
        }
    }

    /// The code and reason of a close frame's payload.
    private static func parseClose(_ payload: [UInt8]) throws(WebSocketProtocolError) -> (WebSocketCloseCode?, String) {
        guard !payload.isEmpty else { return (nil, "") }
        guard payload.count >= 2 else { throw WebSocketProtocolError(.protocolError, "close payload of one byte") }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isSendable else { throw WebSocketProtocolError(.protocolError, "invalid close code") }
        let reasonBytes = payload[2...]
        var validator = WebSocketUTF8Validator()
        guard validator.consume(reasonBytes), validator.isComplete else {
            throw WebSocketProtocolError(.invalidPayloadData, "close reason is not valid UTF-8")
        }
        return (code, String(decoding: reasonBytes, as: UTF8.self))
    }
}
