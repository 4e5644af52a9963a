import BmobIO
import BmobWire

/// One client connection: decodes requests, runs them one at a time in order (pipelined requests wait their
/// turn), writes responses, and enforces timeouts. Loop-confined.
final class HTTPConnection: ChannelHandler, ConnectionTimerOwner {
    /// What the connection is waiting for; decides which timeout applies.
    private enum Phase {
        /// Accepted, nothing received yet. The header timeout applies, not the idle one: a client that
        /// connects sends its request at once, and one that does not must not hold a slot for long.
        case fresh
        /// Between requests, nothing of the next one received.
        case idle
        /// Part of a head received.
        case head
        /// Head complete, body arriving.
        case body
        /// A request is being answered.
        case responding
        /// The connection switched to WebSocket; a ``WebSocketConnection`` owns the channel now.
        case upgraded
    }

    let channel: Channel
    private let shared: HTTPServer.Shared
    private let state: ServerLoopState
    private var decoder: HTTPRequestDecoder
    private var phase = Phase.fresh
    private var currentHead: HTTPRequestHead?
    private var currentBody: [UInt8] = []
    /// When the current phase times out (monotonic nanoseconds).
    private var deadline: UInt64 = 0
    /// The phase's timer; cancelled when the connection closes or is upgraded.
    private var timer = ConnectionTimer()
    /// Stop after the response in flight (shutdown, or an error that ends the connection).
    private(set) var closeAfterResponse = false
    /// Bytes buffered unread beyond which reading pauses while a request is answered.
    private static let pipelineBufferLimit = 64 * 1024
    /// Whether the connection's responder task exists. It is started by the first request and then serves
    /// every request of the connection in turn, so a keep-alive request costs a continuation resume rather
    /// than a task creation.
    private var responderStarted = false
    /// The responder task, suspended until the next request.
    private var waiter: UnsafeContinuation<HTTPRequest?, Never>?
    /// A request decoded while the responder task was still finishing the previous one.
    private var pendingRequest: HTTPRequest?
    /// Whether the connection is on its loop's list of connections that have not sent a complete request
    /// head yet; ``olderWaiting`` and ``newerWaiting`` are its neighbours there. Kept by ``ServerLoopState``.
    var isWaiting = false
    var olderWaiting: HTTPConnection?
    var newerWaiting: HTTPConnection?

    init(channel: Channel, shared: HTTPServer.Shared, state: ServerLoopState) {
        self.channel = channel
        self.shared = shared
        self.state = state
        self.decoder = HTTPRequestDecoder(limits: shared.configuration.limits)
        setDeadline(after: shared.headerTimeout)
    }

    /// Whether the connection is between requests (safe to close at shutdown).
    var isIdle: Bool { (phase == .idle || phase == .fresh) && decoder.isIdle }

    // MARK: - ChannelHandler

    func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) {
        decoder.append(bytes)
        switch phase {
        case .fresh:
            // The first head's time counts from accept.
            phase = .head
        case .idle:
            phase = .head
            setDeadline(after: shared.headerTimeout)
        default:
            break
        }
        processInput()
    }

    func channelInputClosed(_ channel: Channel) {
        // The client finished sending. Answer what is complete; otherwise there is nothing left to do.
        if phase == .responding {
            closeAfterResponse = true
        } else {
            channel.close()
        }
    }

    func channelWritesDrained(_ channel: Channel) {
        if phase != .responding, channel.isOpen {
            channel.resumeReading()
        }
    }

    func channelClosed(_ channel: Channel) {
        cancelTimer()
        state.connectionClosed(self)
        // Let the responder task end.
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: nil)
        }
    }

    // MARK: - Decoding

    private func processInput() {
        // Decode from a local decoder, swapped back at the end: one checked access to the stored property
        // instead of one per event (exclusivity checks on class properties are not free).
        var decoder = HTTPRequestDecoder()
        swap(&decoder, &self.decoder)
        defer { swap(&decoder, &self.decoder) }
        while phase != .responding, channel.isOpen, !channel.isClosing {
            guard let event = decoder.next() else { break }
            switch event {
            case .head(let head):
                if isWaiting { state.removeWaiting(self) }
                currentHead = head
                currentBody = []
                if head.hasBody {
                    let limit = shared.responder.bodyLimit(for: head) ?? shared.configuration.limits.maxBodyBytes
                    decoder.setBodyLimit(limit)
                    if let length = head.contentLength, length > limit {
                        sendError(.payloadTooLarge, "request body is larger than \(limit) bytes")
                        return
                    }
                    if head.expectsContinue {
                        channel.write(HTTPResponseEncoder.continueResponse)
                    }
                    currentBody.reserveCapacity(min(head.contentLength ?? 0, 1 << 20))
                    phase = .body
                    setDeadline(after: shared.bodyTimeout)
                }
            case .body(let bytes):
                currentBody.append(contentsOf: bytes)
                setDeadline(after: shared.bodyTimeout)
            case .end:
                guard let head = currentHead else { continue }
                currentHead = nil
                dispatch(HTTPRequest(head: head, body: currentBody, remoteAddress: channel.remoteAddress))
                currentBody = []
            case .failure(let error):
                sendError(error.status, error.reason)
                return
            }
        }
        if phase == .responding, decoder.bufferedByteCount > Self.pipelineBufferLimit {
            channel.pauseReading()
        }
    }

    // MARK: - Responding

    private func dispatch(_ request: HTTPRequest) {
        phase = .responding
        state.requestStarted()
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: request)
        } else if responderStarted {
            pendingRequest = request
        } else {
            responderStarted = true
            startResponder(first: request)
        }
    }

    /// Runs on the loop (task executor preference), answering this connection's requests one at a time.
    private func startResponder(first: HTTPRequest) {
        let responder = shared.responder
        let bound = LoopBound(self, loop: channel.loop)
        Task(executorPreference: channel.loop) {
            var next: HTTPRequest? = first
            while let request = next {
                let response: HTTPResponse
                do {
                    response = try await responder.respond(to: request)
                } catch let error as any HTTPResponseError {
                    response = error.response
                } catch {
                    var failure = responder.errorResponse(status: .internalServerError, message: "internal server error")
                    failure.closeConnection = true
                    response = failure
                }
                bound.value.finish(response, for: request.head)
                next = await bound.value.nextRequest()
            }
        }
    }

    /// The next request to answer, or `nil` once the connection is closed.
    private func nextRequest() async -> HTTPRequest? {
        if let request = pendingRequest {
            pendingRequest = nil
            return request
        }
        guard channel.isOpen, phase != .upgraded else { return nil }
        return await withUnsafeContinuation { continuation in
            waiter = continuation
        }
    }

    private func finish(_ response: HTTPResponse, for head: HTTPRequestHead) {
        state.requestFinished()
        guard channel.isOpen else { return }
        if let upgrade = response.upgrade, response.status.code == 101 {
            switchProtocols(response, upgrade)
            return
        }
        let keepAlive = head.keepAlive && !response.closeConnection && !closeAfterResponse && !state.isShuttingDown
        // Encode into the loop's scratch buffer: most responses are sent whole at once, so they need no
        // allocation of their own (a partial write keeps a copy in the channel's queue).
        var bytes = state.takeScratchBuffer()
        HTTPResponseEncoder.encode(
            HTTPResponseHead(status: response.status, headers: response.headers),
            body: response.body,
            keepAlive: keepAlive,
            date: state.dateCache.current,
            omitBody: head.method == .head,
            into: &bytes
        )
        channel.write(bytes)
        state.returnScratchBuffer(bytes)
        guard keepAlive else {
            channel.closeAfterPendingWrites()
            return
        }
        phase = decoder.bufferedByteCount > 0 ? .head : .idle
        setDeadline(after: phase == .idle ? shared.idleTimeout : shared.headerTimeout)
        if channel.pendingWriteBytes == 0 {
            channel.resumeReading()
        }
        processInput()
    }

    /// Writes the 101 response and hands the channel to a WebSocket connection, with any bytes the client
    /// sent behind the request. A server that is shutting down (or a client that already closed its side)
    /// gets no new WebSocket.
    private func switchProtocols(_ response: HTTPResponse, _ upgrade: WebSocketUpgrade) {
        guard !closeAfterResponse, !state.isShuttingDown else {
            sendError(.serviceUnavailable, "server is shutting down")
            return
        }
        var bytes: [UInt8] = []
        HTTPResponseEncoder.encode(
            HTTPResponseHead(status: response.status, headers: response.headers),
            body: [], keepAlive: true, date: nil, into: &bytes)
        channel.write(bytes)
        phase = .upgraded
        cancelTimer()
        let leftover = decoder.takeBufferedBytes()
        let socket = WebSocketConnection(channel: channel, configuration: upgrade.configuration, state: state)
        state.upgraded(self, to: socket)
        socket.start(handler: upgrade.makeHandler(), leftover: leftover)
        if channel.isOpen { channel.resumeReading() }
    }

    /// Answers a request the server rejects itself, then closes.
    private func sendError(_ status: HTTPStatus, _ message: String) {
        var response = shared.responder.errorResponse(status: status, message: message)
        response.closeConnection = true
        phase = .responding
        currentHead = nil
        currentBody = []
        var bytes: [UInt8] = []
        HTTPResponseEncoder.encode(
            HTTPResponseHead(status: response.status, headers: response.headers),
            body: response.body,
            keepAlive: false,
            date: state.dateCache.current,
            into: &bytes
        )
        channel.write(bytes)
        channel.closeAfterPendingWrites()
    }

    /// Called at shutdown: idle connections close now, busy ones after their response.
    func beginShutdown() {
        if isIdle {
            channel.close()
        } else {
            closeAfterResponse = true
        }
    }

    // MARK: - Timeouts

    /// Moves the deadline. The single timer is only re-armed when the new deadline is earlier than the armed
    /// one; a later deadline is picked up when the timer fires, so requests do not churn the timer heap.
    private func setDeadline(after nanoseconds: UInt64) {
        deadline = Posix.monotonicNanoseconds() &+ nanoseconds
        armTimer(at: deadline)
    }

    private func armTimer(at when: UInt64) {
        guard channel.isOpen else { return }
        timer.arm(at: when, on: channel.loop, for: self)
    }

    private func cancelTimer() {
        timer.cancel(on: channel.loop)
    }

    func timerFired(armedFor when: UInt64) {
        guard timer.fired(armedFor: when), channel.isOpen, !channel.isClosing else { return }
        let now = Posix.monotonicNanoseconds()
        if now < deadline {
            armTimer(at: deadline)
            return
        }
        switch phase {
        case .fresh, .idle:
            channel.close()
        case .head, .body:
            sendError(.requestTimeout, "request not received in time")
        case .responding:
            // The handler owns this time; check again later.
            armTimer(at: now &+ shared.idleTimeout)
        case .upgraded:
            // Not reached: upgrading cancels the timer.
            break
        }
    }
}
