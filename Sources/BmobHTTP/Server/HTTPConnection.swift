import BmobIO
import BmobWire
import BmobServerCodecs

/// One client connection: feeds its ``HTTPConnectionStateMachine`` the channel's events and performs the
/// actions it returns — writes, reading paused and resumed, the timer, the responder task, streamed bodies.
/// Loop-confined.
///
/// One responder task per connection answers its requests in turn: it is started by the first request and then
/// waits for the next, so a keep-alive request costs a continuation resume rather than a task creation.
final class HTTPConnection: ChannelHandler, ConnectionTimerOwner {
    let channel: Channel
    private let shared: HTTPServer.Shared
    private let state: ServerLoopState
    private var machine: HTTPConnectionStateMachine
    /// The machine's timer; cancelled when the connection closes or is upgraded.
    private var timer = ConnectionTimer()
    /// Whether the connection's responder task exists.
    private var responderStarted = false
    /// The responder task, suspended until the next request.
    private var waiter: UnsafeContinuation<HTTPRequest?, Never>?
    /// A request decoded while the responder task was still finishing the previous one.
    private var pendingRequest: HTTPRequest?
    /// The streamed body of the request being answered, while it arrives.
    private var requestBody: HTTPRequestBodyStream?
    /// The streamed response being written: its writer, framing, bytes still due under `Content-Length`, and a
    /// write waiting for the channel to drain.
    private var responseWriter: HTTPBodyWriter?
    private var responseFraming = HTTPBodyFraming.chunked
    private var responseBytesDue = 0
    private var writeWaiter: CheckedContinuation<Void, any Error>?
    /// Output queued beyond which a streamed response's writer waits for the channel to drain.
    private static let responseHighWater = 256 * 1024
    /// Whether the connection is on its loop's list of connections that have not sent a complete request
    /// head yet; ``olderWaiting`` and ``newerWaiting`` are its neighbours there. Kept by ``ServerLoopState``.
    var isWaiting = false
    var olderWaiting: HTTPConnection?
    var newerWaiting: HTTPConnection?

    init(channel: Channel, shared: HTTPServer.Shared, state: ServerLoopState) {
        self.channel = channel
        self.shared = shared
        self.state = state
        self.machine = HTTPConnectionStateMachine(configuration: shared.connectionConfiguration, now: channel.loop.now)
        drive()
    }

    /// Whether the connection is between requests (safe to close at shutdown).
    var isIdle: Bool { machine.isIdle }

    // MARK: - ChannelHandler

    func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) {
        machine.bytesReceived(bytes, now: channel.loop.now)
        drive()
    }

    func channelInputClosed(_ channel: Channel) {
        machine.inputClosed()
        drive()
    }

    func channelWritesDrained(_ channel: Channel) {
        machine.writesDrained()
        drive()
        if let writeWaiter {
            self.writeWaiter = nil
            writeWaiter.resume()
        }
    }

    func channelClosed(_ channel: Channel) {
        timer.cancel(on: channel.loop)
        state.connectionClosed(self)
        machine.connectionClosed()
        drive()
        responseWriter = nil
        if let writeWaiter {
            self.writeWaiter = nil
            writeWaiter.resume(throwing: HTTPStreamError(.connectionClosed, "the connection closed"))
        }
        // Let the responder task end.
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: nil)
        }
    }

    // MARK: - Performing the machine's actions

    private func drive() {
        while let action = machine.nextAction() {
            perform(action)
        }
    }

    private func perform(_ action: consuming HTTPConnectionStateMachine.Action) {
        // Consumed, so that a request's head and body move into it rather than being copied.
        switch consume action {
        case .dispatch(let head, let body):
            if isWaiting { state.removeWaiting(self) }
            dispatch(HTTPRequest(head: head, body: body, remoteAddress: channel.remoteAddress))
        case .routeHead(let head):
            if isWaiting { state.removeWaiting(self) }
            machine.headRouted(shared.responder.bodyPolicy(for: head), now: channel.loop.now)
        case .armTimer(let when):
            guard channel.isOpen else { return }
            timer.arm(at: when, on: channel.loop, for: self)
        case .sendContinue:
            channel.write(HTTPResponseEncoder.continueResponse)
        case .dispatchStreaming(let head):
            let bound = LoopBound(self, loop: channel.loop)
            let stream = HTTPRequestBodyStream(
                consumed: { count in bound.loop.execute { bound.value.bodyConsumed(count) } },
                demanded: { bound.loop.execute { bound.value.bodyDemanded() } })
            requestBody = stream
            dispatch(HTTPRequest(head: head, bodyStream: stream, remoteAddress: channel.remoteAddress))
        case .bodyChunk(let bytes):
            requestBody?.yield(bytes)
            recordStreamedBytes()
        case .bodyEnd:
            requestBody?.finish()
            requestBody = nil
        case .bodyFailed(let error):
            requestBody?.fail(error)
            requestBody = nil
        case .pauseReading:
            if requestBody != nil { shared.countStreamedBodyPause() }
            channel.pauseReading()
        case .resumeReading:
            channel.resumeReading()
        case .sendError(let status, let message):
            sendError(status, message)
        case .closeAfterWrites:
            channel.closeAfterPendingWrites()
        case .close:
            channel.close()
        }
    }

    /// The handler of the streamed body started reading it.
    private func bodyDemanded() {
        machine.bodyDemanded(now: channel.loop.now)
        drive()
    }

    /// The handler of the streamed body took `count` bytes.
    private func bodyConsumed(_ count: Int) {
        machine.bodyConsumed(count, now: channel.loop.now)
        drive()
    }

    /// Reports what the connection holds for a streamed body (``HTTPServer/peakStreamedBufferBytes``).
    private func recordStreamedBytes() {
        shared.recordStreamedBufferBytes(machine.bufferedByteCount + channel.pendingWriteBytes)
    }

    // MARK: - Responding

    private func dispatch(_ request: consuming HTTPRequest) {
        request.receivedAt = Posix.monotonicNanoseconds()
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
                    var failure = responder.errorResponse(
                        status: .internalServerError, message: "internal server error")
                    failure.closeConnection = true
                    response = failure
                }
                if let stream = response.bodyStream {
                    if let writer = bound.value.startStreamedResponse(response, length: stream.length) {
                        do {
                            try await stream.produce(writer)
                            bound.value.finishStreamedResponse(writer)
                        } catch {
                            bound.value.abortStreamedResponse(writer)
                        }
                    }
                } else {
                    bound.value.finish(response)
                }
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
        guard channel.isOpen, machine.state != .upgraded else { return nil }
        return await withUnsafeContinuation { continuation in
            waiter = continuation
        }
    }

    /// Writes a complete answer.
    private func finish(_ response: HTTPResponse) {
        state.requestFinished()
        guard channel.isOpen else { return }
        if let upgrade = response.upgrade, response.status.code == 101 {
            switchProtocols(response, upgrade)
            return
        }
        let plan = machine.responseStarted(
            keepAliveRequested: !response.closeConnection && !state.isShuttingDown, bodyLength: response.body.count)
        guard case .send(let keepAlive, _, let omitBody) = plan else { return }
        // Encode into the loop's scratch buffer: most responses are sent whole at once, so they need no
        // allocation of their own (a partial write keeps a copy in the channel's queue).
        var bytes = state.takeScratchBuffer()
        HTTPResponseEncoder.encode(
            HTTPResponseHead(status: response.status, headers: response.headers),
            body: response.body,
            keepAlive: keepAlive,
            date: state.dateCache.current,
            omitBody: omitBody,
            into: &bytes
        )
        channel.write(bytes)
        state.returnScratchBuffer(bytes)
        machine.responseCompleted(now: channel.loop.now, writesPending: channel.pendingWriteBytes > 0)
        drive()
    }

    /// Writes the head of a streamed answer; returns the writer for its body, or `nil` when there is no body to
    /// write (the answer is dropped, is to `HEAD`, or has a status without a body: it is then complete).
    private func startStreamedResponse(_ response: HTTPResponse, length: Int?) -> HTTPBodyWriter? {
        state.requestFinished()
        guard channel.isOpen else { return nil }
        let plan = machine.responseStarted(
            keepAliveRequested: !response.closeConnection && !state.isShuttingDown, bodyLength: length)
        guard case .send(let keepAlive, let framing, let omitBody) = plan else { return nil }
        var bytes: [UInt8] = []
        HTTPResponseEncoder.encodeHead(
            HTTPResponseHead(status: response.status, headers: response.headers),
            framing: framing, keepAlive: keepAlive, date: state.dateCache.current, into: &bytes)
        channel.write(bytes)
        if omitBody || !response.status.permitsBody {
            completeResponse()
            return nil
        }
        responseFraming = framing
        if case .length(let length) = framing { responseBytesDue = length }
        let writer = HTTPBodyWriter(connection: LoopBound(self, loop: channel.loop))
        responseWriter = writer
        return writer
    }

    /// Writes a piece of the streamed answer and resumes `continuation` once more may be written.
    func writeResponseBody(
        _ bytes: [UInt8], from writer: HTTPBodyWriter, _ continuation: CheckedContinuation<Void, any Error>
    ) {
        guard responseWriter === writer, channel.isOpen, !channel.isClosing else {
            continuation.resume(throwing: HTTPStreamError(.connectionClosed, "the connection closed"))
            return
        }
        switch responseFraming {
        case .length:
            guard bytes.count <= responseBytesDue else {
                continuation.resume(throwing: HTTPStreamError(.lengthMismatch, "more body than the announced length"))
                return
            }
            responseBytesDue -= bytes.count
            channel.write(bytes)
        case .chunked:
            var framed: [UInt8] = []
            bytes.withUnsafeBytes { HTTPResponseEncoder.appendChunk($0, to: &framed) }
            channel.write(framed)
        case .untilClose:
            channel.write(bytes)
        }
        recordStreamedBytes()
        guard channel.isOpen else {
            continuation.resume(throwing: HTTPStreamError(.connectionClosed, "the connection closed"))
            return
        }
        if channel.pendingWriteBytes > Self.responseHighWater {
            writeWaiter = continuation
        } else {
            continuation.resume()
        }
    }

    /// The producer of the streamed answer returned.
    private func finishStreamedResponse(_ writer: HTTPBodyWriter) {
        guard responseWriter === writer else { return }
        responseWriter = nil
        guard channel.isOpen else { return }
        switch responseFraming {
        case .length where responseBytesDue != 0:
            // Fewer bytes than announced: the client would wait for the rest, or take the next answer for it.
            machine.responseAborted()
            drive()
            return
        case .chunked:
            channel.write(HTTPResponseEncoder.lastChunk)
        default:
            break
        }
        completeResponse()
    }

    /// The producer of the streamed answer threw: its head is gone, so the connection is closed.
    private func abortStreamedResponse(_ writer: HTTPBodyWriter) {
        guard responseWriter === writer else { return }
        responseWriter = nil
        machine.responseAborted()
        drive()
    }

    private func completeResponse() {
        machine.responseCompleted(now: channel.loop.now, writesPending: channel.pendingWriteBytes > 0)
        drive()
    }

    /// Writes the 101 response and hands the channel to a WebSocket connection, with any bytes the client
    /// sent behind the request. A server that is shutting down (or a client that already closed its side)
    /// gets no new WebSocket.
    private func switchProtocols(_ response: HTTPResponse, _ upgrade: WebSocketUpgrade) {
        guard machine.upgradeRequested(shuttingDown: state.isShuttingDown) else {
            drive()
            return
        }
        var bytes: [UInt8] = []
        HTTPResponseEncoder.encode(
            HTTPResponseHead(status: response.status, headers: response.headers),
            body: [], keepAlive: true, date: nil, into: &bytes)
        channel.write(bytes)
        timer.cancel(on: channel.loop)
        let leftover = machine.takeBufferedBytes()
        let socket = WebSocketConnection(channel: channel, configuration: upgrade.configuration, state: state)
        state.upgraded(self, to: socket)
        socket.start(handler: upgrade.makeHandler(), leftover: leftover)
        if channel.isOpen { channel.resumeReading() }
    }

    /// Answers a request the server rejects itself, then closes.
    private func sendError(_ status: HTTPStatus, _ message: String) {
        let response = shared.responder.errorResponse(status: status, message: message)
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
        machine.shutdownRequested()
        drive()
    }

    // MARK: - Timeouts

    func timerFired(armedFor when: UInt64) {
        guard timer.fired(armedFor: when), channel.isOpen, !channel.isClosing else { return }
        machine.timerFired(now: channel.loop.now)
        drive()
    }
}

@available(*, unavailable, message: "an HTTPConnection is confined to its event loop")
extension HTTPConnection: Sendable {}
