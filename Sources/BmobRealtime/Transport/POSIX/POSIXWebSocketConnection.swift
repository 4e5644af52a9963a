#if canImport(Glibc) || canImport(Musl) || canImport(Android)
import BmobWire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// One client connection, driven by its I/O thread from the first TCP packet to the last: TCP, TLS, the
/// opening handshake, then BmobWire's ``WebSocketStateMachine`` with `role: .client` (every frame masked
/// with a fresh key from the system's cryptographic generator) until the connection closes.
///
/// Confined to its I/O thread, hence not `Sendable`; other threads talk to it through the
/// ``WebSocketCommandQueue``.
final class POSIXWebSocketConnection {
    private let socket: TCPSocket
    private let queue: WebSocketCommandQueue
    private let configuration: POSIXWebSocketTransport.Configuration
    private var tls: TLSClientSession?
    private var machine: WebSocketStateMachine
    private var generator = SystemRandomNumberGenerator()
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Bytes for the socket (ciphertext with TLS); the unsent part starts at `outputStart`.
    private var output: [UInt8] = []
    private var outputStart = 0
    /// Plaintext that came right after the handshake's response head.
    private var leftover: [UInt8] = []
    private var onEvent: @Sendable (WebSocketTransportEvent) -> Void = { _ in }
    /// Set once the connection is over, with how it ended.
    private var closure: WebSocketTransportClosure?
    /// When a close we started must be answered.
    private var closeDeadline: ContinuousClock.Instant?
    private var peerEnded = false

    private init(socket: TCPSocket, queue: WebSocketCommandQueue, configuration: POSIXWebSocketTransport.Configuration) {
        self.socket = socket
        self.queue = queue
        self.configuration = configuration
        machine = WebSocketStateMachine(role: .client, maximumMessageSize: configuration.maximumMessageSize)
    }

    // MARK: - Opening

    /// Connects, secures and upgrades: the connection is open when this returns.
    ///
    /// - Parameters:
    ///   - endpoint: where to connect.
    ///   - headers: extra request header fields.
    ///   - timeout: the time all of it may take.
    ///   - configuration: TLS trust, sizes and timeouts.
    ///   - queue: the commands of other threads; a close abandons the attempt.
    /// - Returns: the open connection.
    /// - Throws: ``WebSocketTransportError``.
    static func open(
        endpoint: WebSocketEndpoint, headers: [HTTPField], timeout: RealtimeDuration,
        configuration: POSIXWebSocketTransport.Configuration, queue: WebSocketCommandQueue
    ) throws(WebSocketTransportError) -> POSIXWebSocketConnection {
        let deadline = ContinuousClock.now + .nanoseconds(timeout.nanoseconds)
        let socket = try TCPSocket.connect(
            host: endpoint.host, port: endpoint.port, deadline: deadline, wakePipe: queue.wakePipe,
            shouldStop: { queue.closeRequested })
        let connection = POSIXWebSocketConnection(socket: socket, queue: queue, configuration: configuration)
        if endpoint.isSecure {
            let context = try TLSClientContext(configuration: configuration.tls)
            connection.tls = try TLSClientSession(context: context, host: endpoint.host)
            try connection.completeTLSHandshake(deadline: deadline)
        }
        try connection.upgrade(endpoint: endpoint, headers: headers, deadline: deadline)
        return connection
    }

    private func completeTLSHandshake(deadline: ContinuousClock.Instant) throws(WebSocketTransportError) {
        guard let tls else { return }
        while true {
            let done = try tls.handshake()
            append(ciphertext: tls.takeCiphertext())
            try flush(until: deadline)
            if done { return }
            try wait(readable: true, until: deadline)
            var received: [UInt8] = []
            guard try readAvailable(into: &received) else {
                throw WebSocketTransportError(.tlsFailed, "connection closed during the TLS handshake")
            }
        }
    }

    private func upgrade(
        endpoint: WebSocketEndpoint, headers: [HTTPField], deadline: ContinuousClock.Instant
    ) throws(WebSocketTransportError) {
        let key = WebSocketHandshake.makeKey(using: &generator)
        var fields = WebSocketHandshake.requestHeaders(host: endpoint.authority, key: key)
        for field in headers {
            let text = field.name + field.value
            guard !field.name.isEmpty, !text.contains("\r"), !text.contains("\n"), !field.name.contains(":") else {
                throw WebSocketTransportError(.invalidURL, "header field with a line break or bad name")
            }
            fields.add(name: field.name, value: field.value)
        }
        var request = "GET \(endpoint.target) HTTP/1.1\r\n"
        for field in fields { request += "\(field.name): \(field.value)\r\n" }
        request += "\r\n"
        try write(plaintext: Array(request.utf8))
        try flush(until: deadline)

        var received: [UInt8] = []
        while true {
            if let length = HTTPResponseHeadParser.headLength(in: received) {
                let head = try HTTPResponseHeadParser.parse(received[0..<length])
                do {
                    try WebSocketHandshake.checkResponse(head, key: key)
                } catch {
                    let status = head.status.code
                    throw WebSocketTransportError(
                        .handshakeRejected, "upgrade refused: \(error.description)",
                        httpStatus: status == 101 ? nil : status)
                }
                leftover = Array(received[length...])
                return
            }
            guard received.count <= HTTPResponseHeadParser.maximumHeadSize else {
                throw WebSocketTransportError(.handshakeRejected, "HTTP response head too long")
            }
            try wait(readable: true, until: deadline)
            guard try readAvailable(into: &received) else {
                throw WebSocketTransportError(.handshakeRejected, "connection closed before the upgrade response")
            }
        }
    }

    /// Polls the socket (and the wake pipe) until it is readable or writable. While opening, a close from
    /// another thread abandons the attempt; while finishing, it is expected and ignored.
    private func wait(
        readable: Bool, until deadline: ContinuousClock.Instant, abandoningOnClose: Bool = true
    ) throws(WebSocketTransportError) {
        while true {
            if abandoningOnClose && queue.closeRequested {
                throw WebSocketTransportError(.cancelled, "closed while connecting")
            }
            var descriptors = [
                pollfd(fd: socket.descriptor, events: Int16(readable ? POLLIN : POLLOUT), revents: 0),
                pollfd(fd: queue.wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = POSIXSystem.milliseconds(until: deadline)
            let ready = POSIXSystem.poll(&descriptors, timeout: timeout)
            if ready < 0 { throw WebSocketTransportError(.connectionLost, "poll: \(POSIXSystem.describe(errno))") }
            if descriptors[1].revents != 0 { queue.wakePipe.drain() }
            if descriptors[0].revents != 0 { return }
            if ready == 0 && timeout == 0 { throw WebSocketTransportError(.timedOut, "opening handshake timed out") }
        }
    }

    /// Writes all pending output, waiting for the socket as needed.
    private func flush(until deadline: ContinuousClock.Instant) throws(WebSocketTransportError) {
        while try !writeAvailable() {
            try wait(readable: false, until: deadline)
        }
    }

    // MARK: - Running

    /// Moves messages both ways until the connection closes, then reports its closure last.
    ///
    /// - Parameter onEvent: receives messages, then the closure.
    func run(onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void) {
        self.onEvent = onEvent
        do {
            if !leftover.isEmpty {
                machine.bytesReceived(leftover)
                leftover = []
                try performActions()
            }
            while closure == nil {
                try handleCommands()
                _ = try writeAvailable()
                if closure != nil { break }
                try waitAndRead()
            }
        } catch {
            machine.connectionClosed()
            closure = closure ?? WebSocketTransportClosure(code: .abnormalClosure, error: error)
        }
        finish()
        onEvent(.closed(closure ?? WebSocketTransportClosure(code: .abnormalClosure)))
    }

    private func handleCommands() throws(WebSocketTransportError) {
        for command in queue.takeAll() {
            switch command {
            case .send(let message):
                guard machine.state == .open else { continue }
                for frame in fragments(of: message) { try send(frame) }
            case .close(let code, let reason):
                if let action = machine.closeRequested(code: code, reason: reason) { try perform(action) }
            }
        }
    }

    /// One `poll` for input, output, a wake-up or the close deadline, and what follows from it.
    private func waitAndRead() throws(WebSocketTransportError) {
        var interest = Int16(POLLIN)
        if outputStart < output.count { interest |= Int16(POLLOUT) }
        var descriptors = [
            pollfd(fd: socket.descriptor, events: interest, revents: 0),
            pollfd(fd: queue.wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let ready = POSIXSystem.poll(&descriptors, timeout: POSIXSystem.milliseconds(until: closeDeadline))
        if ready < 0 { throw WebSocketTransportError(.connectionLost, "poll: \(POSIXSystem.describe(errno))") }
        if descriptors[1].revents != 0 { queue.wakePipe.drain() }
        if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var received: [UInt8] = []
            let open = try readAvailable(into: &received)
            if !received.isEmpty {
                machine.bytesReceived(received)
                try performActions()
            }
            if !open && closure == nil {
                peerEnded = true
                machine.connectionClosed()
                closure = WebSocketTransportClosure(
                    code: .abnormalClosure,
                    error: WebSocketTransportError(.connectionLost, "connection closed without a close frame"))
            }
        }
        if closure == nil, let closeDeadline, ContinuousClock.now >= closeDeadline {
            machine.connectionClosed()
            closure = WebSocketTransportClosure(
                code: .abnormalClosure,
                error: WebSocketTransportError(.timedOut, "the server did not answer the close frame"))
        }
    }

    private func performActions() throws(WebSocketTransportError) {
        while let action = machine.nextAction() {
            try perform(action)
        }
    }

    private func perform(_ action: WebSocketStateMachine.Action) throws(WebSocketTransportError) {
        switch action {
        case .deliver(let message):
            onEvent(.message(message))
        case .send(let frame):
            try send(frame)
            if frame.opcode == .close {
                // The peer started the closing handshake and this is the echo.
                closure = WebSocketTransportClosure(
                    code: machine.receivedCloseCode ?? .noStatusReceived, reason: machine.receivedCloseReason ?? "")
            }
        case .close(let code, let reason):
            try send(.close(code: code, reason: reason))
            if machine.state == .closed {
                closure = WebSocketTransportClosure(
                    code: code, reason: reason, error: WebSocketTransportError(.protocolViolation, reason))
            } else {
                closeDeadline = ContinuousClock.now + configuration.closeTimeout
            }
        case .closed:
            closure = WebSocketTransportClosure(
                code: machine.receivedCloseCode ?? .noStatusReceived, reason: machine.receivedCloseReason ?? "")
        }
    }

    /// After the closing handshake or a failure: flush, then give the server a moment to close TCP first
    /// (RFC 6455 §7.1.1); the socket closes when the connection is released.
    private func finish() {
        let deadline = ContinuousClock.now + configuration.closeGracePeriod
        if let tls, !peerEnded {
            tls.shutdown()
            append(ciphertext: tls.takeCiphertext())
        }
        while (try? writeAvailable()) == false {
            guard (try? wait(readable: false, until: deadline, abandoningOnClose: false)) != nil else { return }
        }
        guard !peerEnded else { return }
        socket.shutdownWrite()
        while true {
            var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = POSIXSystem.poll(&descriptors, timeout: POSIXSystem.milliseconds(until: deadline))
            guard ready > 0 else { return }
            switch try? socket.read(into: &readBuffer) {
            case .bytes?, .wouldBlock?: continue
            default: return
            }
        }
    }

    // MARK: - Bytes

    /// The frames of an outgoing message: one, or several of at most the fragment size.
    private func fragments(of message: WebSocketMessage) -> [WebSocketFrame] {
        let (opcode, payload): (WebSocketOpcode, [UInt8]) =
            switch message {
            case .text(let text): (.text, Array(text.utf8))
            case .binary(let bytes): (.binary, bytes)
            }
        let size = max(1, configuration.outgoingFragmentSize)
        guard payload.count > size else { return [WebSocketFrame(opcode: opcode, payload: payload)] }
        var frames: [WebSocketFrame] = []
        var start = 0
        while start < payload.count {
            let end = min(start + size, payload.count)
            frames.append(
                WebSocketFrame(
                    fin: end == payload.count, opcode: start == 0 ? opcode : .continuation,
                    payload: Array(payload[start..<end])))
            start = end
        }
        return frames
    }

    /// Masks a frame with a fresh key and queues its bytes.
    private func send(_ frame: WebSocketFrame) throws(WebSocketTransportError) {
        var masked = frame
        masked.maskingKey = WebSocketMaskingKey.random(using: &generator)
        try write(plaintext: masked.encoded())
    }

    /// Queues plaintext, encrypting it first under TLS.
    private func write(plaintext: [UInt8]) throws(WebSocketTransportError) {
        if let tls {
            try tls.write(plaintext: plaintext)
            append(ciphertext: tls.takeCiphertext())
        } else {
            append(ciphertext: plaintext)
        }
    }

    private func append(ciphertext bytes: [UInt8]) {
        if outputStart == output.count {
            output = bytes
            outputStart = 0
        } else {
            output += bytes
        }
    }

    /// Writes what the socket takes now.
    ///
    /// - Returns: whether all output is written.
    private func writeAvailable() throws(WebSocketTransportError) -> Bool {
        while outputStart < output.count {
            let written = try socket.write(output[outputStart...])
            if written == 0 { return false }
            outputStart += written
        }
        output = []
        outputStart = 0
        return true
    }

    /// Reads what the socket has now, decrypting under TLS, and appends the plaintext to `plaintext`.
    ///
    /// - Returns: `false` when the peer closed the connection (TCP or TLS).
    private func readAvailable(into plaintext: inout [UInt8]) throws(WebSocketTransportError) -> Bool {
        var open = true
        reading: for _ in 0..<16 {
            switch try socket.read(into: &readBuffer) {
            case .bytes(let count):
                if let tls { tls.receive(ciphertext: readBuffer[0..<count]) } else { plaintext += readBuffer[0..<count] }
                if count < readBuffer.count { break reading }
            case .wouldBlock:
                break reading
            case .endOfStream:
                open = false
                break reading
            }
        }
        if let tls {
            var decrypted: [UInt8] = []
            if try tls.readPlaintext({ decrypted += $0 }) == .closed { open = false }
            plaintext += decrypted
            append(ciphertext: tls.takeCiphertext())
        }
        return open
    }
}
#endif
