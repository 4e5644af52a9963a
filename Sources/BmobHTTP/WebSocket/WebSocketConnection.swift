package import BmobIO
package import BmobWire

/// A connection after a WebSocket upgrade: drives a server-side ``WebSocketStateMachine`` with the channel's
/// bytes, hands messages to its ``WebSocketHandler``, and keeps the connection healthy — pings after
/// silence, a bounded output queue, a deadline for the closing handshake. Loop-confined.
///
/// Threading rules:
/// 1. Every method runs on ``loop``; other threads reach a connection through `loop.execute`.
/// 2. The handler is called only from this connection's methods, so it never runs concurrently with itself.
/// 3. After ``WebSocketHandler/webSocketClosed(_:code:)`` nothing is delivered or sent.
package final class WebSocketConnection: ChannelHandler, ConnectionTimerOwner {
    let channel: Channel
    private let configuration: WebSocketConfiguration
    private let state: ServerLoopState
    private var machine: WebSocketStateMachine
    private var handler: (any WebSocketHandler)?
    /// When the peer last sent anything (nanoseconds of the loop's clock).
    private var lastReceived: UInt64
    /// Whether a ping went out since the peer last sent anything.
    private var pingSent = false
    /// When the closing handshake gives up, once we sent our close frame.
    private var closeDeadline: UInt64?
    /// The ping, pong and close deadlines' timer; cancelled when the connection closes.
    private var timer = ConnectionTimer()
    private let pingInterval: UInt64
    private let pongTimeout: UInt64

    init(channel: Channel, configuration: WebSocketConfiguration, state: ServerLoopState) {
        self.channel = channel
        self.configuration = configuration
        self.state = state
        self.machine = WebSocketStateMachine(role: .server, maximumMessageSize: max(125, configuration.maximumMessageSize))
        self.lastReceived = channel.loop.now
        self.pingInterval = configuration.pingInterval.nanoseconds
        self.pongTimeout = configuration.pongTimeout.nanoseconds
    }

    /// The loop the connection lives on.
    package var loop: EventLoop { channel.loop }

    /// Whether messages can still be sent: the connection is open and no close has started.
    package var isOpen: Bool { machine.state == .open && channel.isOpen && !channel.isClosing }

    /// Output bytes waiting for the peer to read them.
    package var queuedBytes: Int { channel.pendingWriteBytes }

    /// Takes over the channel after the 101 response: installs itself, opens the handler, and decodes bytes
    /// that arrived behind the upgrade request.
    func start(handler: any WebSocketHandler, leftover: [UInt8]) {
        self.handler = handler
        channel.handler = self
        armTimer(at: lastReceived &+ pingInterval)
        handler.webSocketOpened(self)
        if !leftover.isEmpty, channel.isOpen {
            machine.bytesReceived(leftover)
            drive()
        }
    }

    // MARK: - Sending

    /// Sends a text message.
    ///
    /// - Returns: whether it was queued; `false` when the connection is closing or the queue was full (the
    ///   connection is then being closed with 1008).
    @discardableResult
    package func send(text: String) -> Bool {
        send(encodedFrame: WebSocketFrame(opcode: .text, payload: Array(text.utf8)).encoded())
    }

    /// Sends one or more frames already encoded (unmasked), so one encoding can serve many connections and frames
    /// queued together go out in one write.
    ///
    /// - Returns: whether it was queued; `false` when the connection is closing or the queue was full (the
    ///   connection is then being closed with 1008).
    @discardableResult
    package func send(encodedFrame bytes: [UInt8]) -> Bool {
        guard isOpen else { return false }
        guard channel.pendingWriteBytes + bytes.count <= configuration.maximumQueuedBytes else {
            state.countSlowWebSocketClient()
            close(code: .policyViolation, reason: "client reads too slowly")
            return false
        }
        channel.write(bytes)
        state.countWebSocketMessage()
        return true
    }

    /// Starts the closing handshake; the TCP connection closes when the peer answers or after the close
    /// timeout. Does nothing when a close is already under way.
    package func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        guard channel.isOpen, let action = machine.closeRequested(code: code, reason: reason) else { return }
        perform(action)
        let deadline = channel.loop.now &+ configuration.closeTimeout.nanoseconds
        closeDeadline = deadline
        armTimer(at: deadline)
    }

    // MARK: - ChannelHandler

    package func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) {
        lastReceived = channel.loop.now
        if pingSent {
            // The answer to our ping: the armed timer waits for the pong deadline; the next ping is due one
            // interval from now.
            pingSent = false
            if closeDeadline == nil { armTimer(at: lastReceived &+ pingInterval) }
        }
        machine.bytesReceived(bytes)
        drive()
    }

    package func channelInputClosed(_ channel: Channel) {
        // The peer went away without (finishing) the closing handshake.
        machine.connectionClosed()
        channel.close()
    }

    package func channelWritesDrained(_ channel: Channel) {}

    package func channelClosed(_ channel: Channel) {
        machine.connectionClosed()
        timer.cancel(on: channel.loop)
        state.webSocketClosed(self)
        let handler = self.handler
        self.handler = nil
        handler?.webSocketClosed(self, code: machine.receivedCloseCode)
    }

    /// Server shutdown: close with the handler's code, 1001 by default.
    func beginShutdown() {
        guard isOpen else { return }
        let last = handler?.webSocketShuttingDown(self)
        close(code: last?.code ?? .goingAway, reason: last?.reason ?? "server shutting down")
    }

    // MARK: - Driving the machine

    private func drive() {
        while channel.isOpen, let action = machine.nextAction() {
            perform(action)
        }
    }

    private func perform(_ action: WebSocketStateMachine.Action) {
        switch action {
        case .deliver(let message):
            handler?.webSocketReceived(self, message)
        case .send(let frame):
            channel.write(frame.encoded())
        case .close(let code, let reason):
            channel.write(WebSocketFrame.close(code: code, reason: reason).encoded())
        case .closed:
            break
        }
        if machine.state == .closed, channel.isOpen, !channel.isClosing {
            // The handshake is over (or the peer broke the protocol): the server closes TCP first (§7.1.1).
            channel.closeAfterPendingWrites()
        }
    }

    // MARK: - Timers

    private func armTimer(at when: UInt64) {
        guard channel.isOpen else { return }
        timer.arm(at: when, on: channel.loop, for: self)
    }

    func timerFired(armedFor when: UInt64) {
        guard timer.fired(armedFor: when), channel.isOpen else { return }
        let now = channel.loop.now
        if let closeDeadline {
            if now >= closeDeadline {
                channel.close()
            } else {
                armTimer(at: closeDeadline)
            }
            return
        }
        let silence = now &- lastReceived
        if silence >= pingInterval &+ pongTimeout {
            // Nothing arrived, not even the pong: the peer or the path is gone. The handler's last words and close
            // frame go into the idle socket's empty send buffer, which the kernel still delivers after the close.
            if let last = handler?.webSocketUnresponsive(self), channel.isOpen,
                let action = machine.closeRequested(code: last.code, reason: last.reason)
            {
                perform(action)
            }
            machine.connectionClosed()
            channel.close()
        } else if silence >= pingInterval {
            if !pingSent {
                pingSent = true
                channel.write(WebSocketFrame(opcode: .ping).encoded())
            }
            armTimer(at: lastReceived &+ pingInterval &+ pongTimeout)
        } else {
            armTimer(at: lastReceived &+ pingInterval)
        }
    }
}
