package import BmobWire
package import BmobServerCodecs

/// One HTTP/1.1 server connection as a pure state machine: events in, actions out.
///
/// ``HTTPConnection`` tells it what happened on the channel, in the responder task and on the timer, and
/// performs the actions it returns; no sockets, tasks or clocks live here (time comes in with the events), so
/// the connection's rules are tested without I/O: requests answered one at a time in order (pipelined ones wait
/// in the decoder, and reading pauses past a bound), keep-alive, the header, body and idle timeouts, `Expect`,
/// body limits, and streamed request bodies with their backpressure.
///
/// The driver, after each event:
/// ```swift
/// machine.bytesReceived(bytes, now: loop.now)
/// while let action = machine.nextAction() {
///     perform(action)   // `.routeHead` is answered with `headRouted(_:now:)` before the next call
/// }
/// ```
///
/// ## Topics
/// ### Events
/// - ``bytesReceived(_:now:)``
/// - ``headRouted(_:now:)``
/// - ``bodyDemanded(now:)``
/// - ``bodyConsumed(_:now:)``
/// - ``responseStarted(keepAliveRequested:bodyLength:)``
/// - ``responseCompleted(now:writesPending:)``
/// - ``responseAborted()``
/// - ``upgradeRequested(shuttingDown:)``
/// - ``writesDrained()``
/// - ``inputClosed()``
/// - ``timerFired(now:)``
/// - ``shutdownRequested()``
/// - ``connectionClosed()``
/// ### Actions
/// - ``nextAction()``
package struct HTTPConnectionStateMachine {
    /// Limits and timeouts; times in nanoseconds of the loop's clock.
    package struct Configuration: Sendable {
        /// Header and default body limits.
        package var limits: HTTPRequestDecoder.Limits
        /// Time to receive a complete head: from accept for the first request, from its first byte for later ones.
        package var headerTimeout: UInt64
        /// Time allowed between two pieces of a body (not counted while a streamed body waits for its handler).
        package var bodyTimeout: UInt64
        /// Time a keep-alive connection may sit idle between requests.
        package var idleTimeout: UInt64
        /// Bytes of pipelined requests buffered while one is answered, beyond which reading pauses.
        package var pipelineBufferLimit: Int
        /// Bytes of a streamed body handed to the handler and not yet taken at which reading pauses…
        package var bodyStreamHighWater: Int
        /// …and at or below which it resumes.
        package var bodyStreamLowWater: Int

        package init(
            limits: HTTPRequestDecoder.Limits = HTTPRequestDecoder.Limits(),
            headerTimeout: UInt64 = 10_000_000_000,
            bodyTimeout: UInt64 = 30_000_000_000,
            idleTimeout: UInt64 = 60_000_000_000,
            pipelineBufferLimit: Int = 64 * 1024,
            bodyStreamHighWater: Int = 256 * 1024,
            bodyStreamLowWater: Int = 64 * 1024
        ) {
            self.limits = limits
            self.headerTimeout = headerTimeout
            self.bodyTimeout = bodyTimeout
            self.idleTimeout = idleTimeout
            self.pipelineBufferLimit = pipelineBufferLimit
            self.bodyStreamHighWater = bodyStreamHighWater
            self.bodyStreamLowWater = bodyStreamLowWater
        }
    }

    /// What the connection is doing; decides which timeout applies and what input means.
    package enum State: Sendable, Hashable {
        /// Accepted, nothing received: the header timeout runs from accept.
        case fresh
        /// Between requests, nothing of the next one received: the idle timeout runs.
        case idle
        /// Part of a head received.
        case head
        /// A head with a body arrived and waits for ``headRouted(_:now:)``.
        case routing
        /// Receiving a body that is buffered whole.
        case body
        /// A request is being answered; its streamed body may still be arriving.
        case responding(RequestBody)
        /// An answer that ends the connection is on its way; nothing more is read or answered.
        case closing
        /// The connection switched protocols and belongs to someone else.
        case upgraded
        /// The channel closed.
        case closed
    }

    /// Where the body of the request being answered stands.
    package enum RequestBody: Sendable, Hashable {
        /// Received whole (or there is none).
        case complete
        /// Streaming to the handler, read as it arrives.
        case streaming
        /// Streaming, but the handler is behind: reading is paused and the body timeout does not run.
        case streamingPaused
    }

    /// What the driver does next.
    package enum Action: Sendable, Equatable {
        /// A head with a body arrived: decide how its body is received and call ``headRouted(_:now:)``.
        case routeHead(HTTPRequestHead)
        /// Write the interim `100 Continue` response.
        case sendContinue
        /// Answer this request, whose body is complete.
        case dispatch(HTTPRequestHead, body: [UInt8])
        /// Answer this request now; its body follows as ``bodyChunk(_:)``, then ``bodyEnd`` or ``bodyFailed(_:)``.
        case dispatchStreaming(HTTPRequestHead)
        /// The next piece of the streamed body.
        case bodyChunk([UInt8])
        /// The streamed body is complete.
        case bodyEnd
        /// The streamed body broke off.
        case bodyFailed(HTTPStreamError)
        /// Stop reading from the socket.
        case pauseReading
        /// Read from the socket again.
        case resumeReading
        /// Arm the connection's timer for this deadline, replacing the armed one; call ``timerFired(now:)``
        /// when it fires.
        case armTimer(at: UInt64)
        /// Answer with the server's own error and close once it is written.
        case sendError(HTTPStatus, String)
        /// Close once the pending writes are written (the answer just written ends the connection).
        case closeAfterWrites
        /// Close now, without an answer.
        case close
    }

    /// How the answer to the request in hand goes out.
    package enum ResponsePlan: Sendable, Hashable {
        /// Write it: keep the connection open after it or not, frame a streamed body this way, and leave the
        /// body out (the answer to `HEAD`).
        case send(keepAlive: Bool, framing: HTTPBodyFraming, omitBody: Bool)
        /// Drop it: the connection has answered already (a broken body) or is gone.
        case discard
    }

    package let configuration: Configuration
    /// What the connection is doing.
    package private(set) var state = State.fresh
    private var decoder: HTTPRequestDecoder
    /// The head whose body is being buffered, or whose end is next.
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// The time of the latest event that carried one.
    private var now: UInt64
    /// When the current phase times out.
    private var deadline: UInt64
    /// The deadline the driver's timer is armed for, if it is.
    private var timerDeadline: UInt64?
    private var readingPaused = false
    /// Stop after the answer in flight: the client closed its side, or the server shuts down.
    private var closeAfterResponse = false
    /// A client waits for `100 Continue` before sending a streamed body, which it is sent once the handler reads.
    private var continuePending = false
    /// Streamed body bytes handed to the handler and not yet taken.
    package private(set) var streamedBytesQueued = 0
    /// Whether the answer to the request in hand has started, and whether the connection outlives it.
    private var responseInFlight = false
    private var keepAlive = false
    /// What the answer depends on in the request being answered.
    private var requestKeepAlive = false
    private var requestIsHTTP10 = false
    private var requestIsHEAD = false
    /// Actions decided ahead of the next decoding step, taken first by ``nextAction()``.
    private var queued: [Action] = []
    private var queuedTaken = 0

    /// A machine for a connection accepted at `now`: the first head must arrive within the header timeout.
    package init(configuration: Configuration, now: UInt64) {
        self.configuration = configuration
        self.decoder = HTTPRequestDecoder(limits: configuration.limits)
        self.now = now
        self.deadline = now &+ configuration.headerTimeout
        arm(deadline)
    }

    /// Whether the connection is between requests (safe to close at shutdown).
    package var isIdle: Bool {
        (state == .idle || state == .fresh) && decoder.isIdle
    }

    /// Bytes the connection holds for the request in hand: undecoded input plus streamed body not yet taken.
    package var bufferedByteCount: Int {
        decoder.bufferedByteCount + streamedBytesQueued
    }

    // MARK: - Events

    /// Bytes arrived; then call ``nextAction()`` until it returns `nil`.
    package mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        switch state {
        case .closing, .upgraded, .closed: return
        case .fresh:
            // The first head's time counts from accept.
            state = .head
        case .idle:
            state = .head
            setDeadline(now &+ configuration.headerTimeout)
        default:
            break
        }
        self.now = now
        decoder.append(bytes)
    }

    /// Bytes arrived (a convenience for tests).
    package mutating func bytesReceived(_ bytes: [UInt8], now: UInt64) {
        bytes.withUnsafeBytes { bytesReceived($0, now: now) }
    }

    /// The answer to ``Action/routeHead(_:)``: how the body of the head just decoded is received.
    package mutating func headRouted(_ policy: HTTPRequestBodyPolicy, now: UInt64) {
        precondition(state == .routing, "headRouted without a head to route")
        guard let head else { preconditionFailure("a routed head is missing") }
        self.now = now
        let limit = policy.limit ?? configuration.limits.maxBodyBytes
        decoder.setBodyLimit(limit)
        if let length = head.contentLength, length > limit {
            self.head = nil
            state = .closing
            queue(.sendError(.payloadTooLarge, "request body is larger than \(limit) bytes"))
            return
        }
        if policy.streamed {
            self.head = nil
            begin(head)
            streamedBytesQueued = 0
            if head.expectsContinue {
                // The client is told to send only once the handler reads: a handler that answers first (an
                // upload refused for its keys) never has the body sent at all. Nothing is read meanwhile.
                continuePending = true
                state = .responding(.streamingPaused)
                readingPaused = true
                queue(.pauseReading)
            } else {
                state = .responding(.streaming)
            }
            queue(.dispatchStreaming(head))
        } else {
            if head.expectsContinue {
                queue(.sendContinue)
            }
            body = []
            body.reserveCapacity(min(head.contentLength ?? 0, 1 << 20))
            state = .body
        }
        setDeadline(now &+ configuration.bodyTimeout)
    }

    /// The handler started reading the streamed body: a client waiting for `100 Continue` gets it now.
    package mutating func bodyDemanded(now: UInt64) {
        guard continuePending, state == .responding(.streamingPaused), !responseInFlight else { return }
        continuePending = false
        self.now = now
        state = .responding(.streaming)
        queue(.sendContinue)
        if readingPaused {
            readingPaused = false
            queue(.resumeReading)
        }
        setDeadline(now &+ configuration.bodyTimeout)
    }

    /// The handler took `count` bytes of the streamed body; reading resumes once it has caught up.
    package mutating func bodyConsumed(_ count: Int, now: UInt64) {
        streamedBytesQueued = max(0, streamedBytesQueued - count)
        guard state == .responding(.streamingPaused), !continuePending,
            streamedBytesQueued <= configuration.bodyStreamLowWater
        else {
            return
        }
        self.now = now
        state = .responding(.streaming)
        setDeadline(now &+ configuration.bodyTimeout)
        if readingPaused {
            readingPaused = false
            queue(.resumeReading)
        }
    }

    /// The handler's answer is ready to be written.
    ///
    /// - Parameters:
    ///   - keepAliveRequested: whether the answer and the server allow keeping the connection (no
    ///     `closeConnection`, no shutdown); the request's own wish and the machine's state decide the rest.
    ///   - bodyLength: the body's length, or `nil` for a streamed body of unknown length.
    /// - Returns: how to write it; after ``ResponsePlan/send(keepAlive:framing:omitBody:)`` report
    ///   ``responseCompleted(now:writesPending:)`` or ``responseAborted()``.
    package mutating func responseStarted(keepAliveRequested: Bool, bodyLength: Int?) -> ResponsePlan {
        guard case .responding(let requestBody) = state, !responseInFlight else { return .discard }
        responseInFlight = true
        // An answer given before the streamed body was all read ends the connection: what is left of the body
        // cannot be told from the next request.
        var keep = keepAliveRequested && requestKeepAlive && !closeAfterResponse && requestBody == .complete
        let framing: HTTPBodyFraming
        if let bodyLength {
            framing = .length(bodyLength)
        } else if requestIsHTTP10 {
            framing = .untilClose
            keep = false
        } else {
            framing = .chunked
        }
        keepAlive = keep
        return .send(keepAlive: keep, framing: framing, omitBody: requestIsHEAD)
    }

    /// The answer is written (handed to the channel); the next request may be decoded.
    ///
    /// - Parameter writesPending: whether the channel still holds unwritten bytes (reading paused for
    ///   pipelining then stays paused until ``writesDrained()``).
    package mutating func responseCompleted(now: UInt64, writesPending: Bool) {
        guard case .responding(let requestBody) = state, responseInFlight else { return }
        responseInFlight = false
        self.now = now
        guard keepAlive else {
            if requestBody != .complete {
                queue(
                    .bodyFailed(HTTPStreamError(.connectionClosed, "the response ended the connection before the body"))
                )
            }
            state = .closing
            queue(.closeAfterWrites)
            return
        }
        state = decoder.bufferedByteCount > 0 ? .head : .idle
        setDeadline(now &+ (state == .idle ? configuration.idleTimeout : configuration.headerTimeout))
        if readingPaused, !writesPending {
            readingPaused = false
            queue(.resumeReading)
        }
    }

    /// A streamed answer failed after its head was written: the connection can only be closed.
    package mutating func responseAborted() {
        guard case .responding(let requestBody) = state else { return }
        responseInFlight = false
        if requestBody != .complete {
            queue(.bodyFailed(HTTPStreamError(.connectionClosed, "the response failed")))
        }
        state = .closing
        queue(.close)
    }

    /// The handler answered with `101 Switching Protocols`.
    ///
    /// - Returns: whether to switch: `false` when the connection or the server is winding down, and a 503 is
    ///   queued instead.
    package mutating func upgradeRequested(shuttingDown: Bool) -> Bool {
        guard case .responding = state, !closeAfterResponse, !shuttingDown else {
            if state != .closed {
                state = .closing
                queue(.sendError(.serviceUnavailable, "server is shutting down"))
            }
            return false
        }
        state = .upgraded
        timerDeadline = nil
        return true
    }

    /// After a switch of protocols: the bytes received behind the request, which belong to the new protocol.
    package mutating func takeBufferedBytes() -> [UInt8] {
        decoder.takeBufferedBytes()
    }

    /// Every byte the channel held has been written.
    package mutating func writesDrained() {
        switch state {
        case .fresh, .idle, .head, .body:
            if readingPaused {
                readingPaused = false
                queue(.resumeReading)
            }
        default:
            break
        }
    }

    /// The client finished sending (end of stream).
    package mutating func inputClosed() {
        switch state {
        case .responding(let requestBody):
            // Answer what is complete, then close.
            closeAfterResponse = true
            if requestBody != .complete {
                state = .responding(.complete)
                queue(.bodyFailed(HTTPStreamError(.clientAborted, "the client stopped sending before the body ended")))
            }
        case .closing, .upgraded, .closed:
            break
        default:
            state = .closing
            queue(.close)
        }
    }

    /// The timer armed by ``Action/armTimer(at:)`` fired.
    package mutating func timerFired(now: UInt64) {
        self.now = now
        timerDeadline = nil
        switch state {
        case .closing, .upgraded, .closed:
            return
        case .routing, .responding(.complete), .responding(.streamingPaused):
            // The handler owns this time; look again later.
            arm(now &+ configuration.idleTimeout)
            return
        case .fresh, .idle, .head, .body, .responding(.streaming):
            if now < deadline {
                arm(deadline)
                return
            }
        }
        switch state {
        case .fresh, .idle:
            state = .closing
            queue(.close)
        case .head, .body:
            state = .closing
            queue(.sendError(.requestTimeout, "request not received in time"))
        default:
            failStreamingBody(
                HTTPStreamError(.bodyTimedOut, "request body not received in time"),
                status: .requestTimeout, reason: "request body not received in time")
        }
    }

    /// The server shuts down: an idle connection closes now, a busy one after its answer.
    package mutating func shutdownRequested() {
        if isIdle {
            state = .closing
            queue(.close)
        } else {
            closeAfterResponse = true
        }
    }

    /// The channel closed; a streamed body still arriving breaks off.
    package mutating func connectionClosed() {
        let wasStreaming = state == .responding(.streaming) || state == .responding(.streamingPaused)
        state = .closed
        queued.removeAll()
        queuedTaken = 0
        if wasStreaming {
            queue(.bodyFailed(HTTPStreamError(.connectionClosed, "the connection closed before the body ended")))
        }
    }

    // MARK: - Actions

    /// The next thing to do, or `nil` until the next event.
    package mutating func nextAction() -> Action? {
        if queuedTaken < queued.count {
            let action = queued[queuedTaken]
            queuedTaken += 1
            if queuedTaken == queued.count {
                queued.removeAll(keepingCapacity: true)
                queuedTaken = 0
            }
            return action
        }
        return decodeNext()
    }

    private mutating func decodeNext() -> Action? {
        while true {
            switch state {
            case .fresh, .idle, .head, .body, .responding(.streaming):
                break
            case .responding(.complete):
                // Pipelined requests wait their turn; too many of their bytes pause reading.
                if !readingPaused, decoder.bufferedByteCount > configuration.pipelineBufferLimit {
                    readingPaused = true
                    return .pauseReading
                }
                return nil
            case .routing, .responding(.streamingPaused), .closing, .upgraded, .closed:
                return nil
            }
            guard let event = decoder.next() else { return nil }
            switch event {
            case .head(let head):
                // Without a body, the decoder's next event is the request's end, which dispatches it.
                self.head = head
                if head.hasBody {
                    state = .routing
                    return .routeHead(head)
                }
            case .body(let bytes):
                if state == .responding(.streaming) {
                    streamedBytesQueued += bytes.count
                    setDeadline(now &+ configuration.bodyTimeout)
                    if streamedBytesQueued >= configuration.bodyStreamHighWater {
                        state = .responding(.streamingPaused)
                        if !readingPaused {
                            readingPaused = true
                            queue(.pauseReading)
                        }
                    }
                    return .bodyChunk(bytes)
                }
                body.append(contentsOf: bytes)
                setDeadline(now &+ configuration.bodyTimeout)
            case .end:
                if case .responding = state {
                    state = .responding(.complete)
                    return .bodyEnd
                }
                guard let head else { continue }
                self.head = nil
                begin(head)
                state = .responding(.complete)
                let requestBody = body
                body = []
                return .dispatch(head, body: requestBody)
            case .failure(let error):
                if case .responding = state {
                    failStreamingBody(
                        HTTPStreamError.body(rejectedWith: error.status, error.reason), status: error.status,
                        reason: error.reason)
                    return nextAction()
                }
                head = nil
                body = []
                state = .closing
                return .sendError(error.status, error.reason)
            }
        }
    }

    // MARK: - Helpers

    /// Remembers what the answer to `head` depends on.
    private mutating func begin(_ head: HTTPRequestHead) {
        requestKeepAlive = head.keepAlive
        requestIsHTTP10 = head.version == .http1_0
        requestIsHEAD = head.method == .head
        responseInFlight = false
        continuePending = false
    }

    /// A streamed body broke off: the handler hears of it, and the client gets the error unless an answer has
    /// started (then the connection can only be closed).
    private mutating func failStreamingBody(_ error: HTTPStreamError, status: HTTPStatus, reason: String) {
        queue(.bodyFailed(error))
        let answered = responseInFlight
        state = .closing
        queue(answered ? .close : .sendError(status, reason))
    }

    /// Moves the deadline. The timer is re-armed only for an earlier deadline than the armed one; a later one is
    /// picked up when the timer fires, so that requests do not churn the loop's timers.
    private mutating func setDeadline(_ when: UInt64) {
        deadline = when
        if let timerDeadline, timerDeadline <= when { return }
        arm(when)
    }

    private mutating func arm(_ when: UInt64) {
        timerDeadline = when
        queue(.armTimer(at: when))
    }

    private mutating func queue(_ action: Action) {
        queued.append(action)
    }
}
