import BmobHTTP
import BmobWire
import Testing
import BmobServerCodecs

/// The connection's rules as events in, actions out: no sockets, no clock but the times the tests pass in.
@Suite struct HTTPConnectionStateMachineTests {
    typealias Machine = HTTPConnectionStateMachine
    typealias Action = HTTPConnectionStateMachine.Action

    static let second: UInt64 = 1_000_000_000
    /// Header 10 s, body 30 s, idle 60 s.
    static let configuration = Machine.Configuration(
        limits: HTTPRequestDecoder.Limits(maxBodyBytes: 1000),
        headerTimeout: 10 * second, bodyTimeout: 30 * second, idleTimeout: 60 * second,
        pipelineBufferLimit: 1024, bodyStreamHighWater: 300, bodyStreamLowWater: 100)

    /// A machine accepted at t = 100 s, its first timer armed.
    private func accepted() -> Machine {
        var machine = Machine(configuration: Self.configuration, now: 100 * Self.second)
        #expect(drain(&machine) == [.armTimer(at: 110 * Self.second)])
        return machine
    }

    /// Every action until the machine needs an event.
    private func drain(_ machine: inout Machine) -> [Action] {
        var actions: [Action] = []
        while let action = machine.nextAction() { actions.append(action) }
        return actions
    }

    private func receive(_ machine: inout Machine, _ text: String, at seconds: UInt64) -> [Action] {
        machine.bytesReceived(Array(text.utf8), now: seconds * Self.second)
        return drain(&machine)
    }

    private func head(_ text: String) -> HTTPRequestHead {
        var decoder = HTTPRequestDecoder()
        decoder.append(Array(text.utf8))
        guard case .head(let head)? = decoder.next() else { preconditionFailure("not a head: \(text)") }
        return head
    }

    /// Answers the request in hand with a complete body of `length` bytes and returns the plan and what follows.
    private func answer(
        _ machine: inout Machine, length: Int = 2, keepAlive: Bool = true, at seconds: UInt64,
        writesPending: Bool = false
    ) -> (Machine.ResponsePlan, [Action]) {
        let plan = machine.responseStarted(keepAliveRequested: keepAlive, bodyLength: length)
        machine.responseCompleted(now: seconds * Self.second, writesPending: writesPending)
        return (plan, drain(&machine))
    }

    static let get = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"

    // MARK: - Requests and keep-alive

    @Test func aRequestIsDispatchedAndAnsweredWithKeepAlive() {
        var machine = accepted()
        #expect(receive(&machine, Self.get, at: 101) == [.dispatch(head(Self.get), body: [])])
        #expect(machine.state == .responding(.complete))
        let (plan, after) = answer(&machine, at: 102)
        #expect(plan == .send(keepAlive: true, framing: .length(2), omitBody: false))
        // The idle deadline (162 s) is later than the armed header deadline: nothing is re-armed now.
        #expect(after.isEmpty)
        #expect(machine.state == .idle)
        #expect(machine.isIdle)
    }

    @Test func pipelinedRequestsWaitForTheAnswerBeforeThem() {
        var machine = accepted()
        let second = "POST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
        #expect(receive(&machine, Self.get + second, at: 101) == [.dispatch(head(Self.get), body: [])])
        #expect(machine.nextAction() == nil)
        let (_, after) = answer(&machine, at: 102)
        #expect(after == [.routeHead(head(second))])
        machine.headRouted(.standard, now: 102 * Self.second)
        #expect(drain(&machine) == [.dispatch(head(second), body: Array("abc".utf8))])
    }

    @Test func tooManyPipelinedBytesPauseReadingUntilTheAnswerIsWritten() {
        var machine = accepted()
        let burst = Self.get + String(repeating: Self.get, count: 60)
        let actions = receive(&machine, burst, at: 101)
        #expect(actions.count == 2)
        #expect(actions.last == .pauseReading)
        // Written but not drained: reading stays paused while the next request is answered.
        let (_, after) = answer(&machine, at: 102, writesPending: true)
        #expect(after == [.dispatch(head(Self.get), body: [])])
        machine.writesDrained()
        #expect(drain(&machine).isEmpty)
        let (_, next) = answer(&machine, at: 103)
        #expect(next.first == .resumeReading)
    }

    @Test func http10ClosesAfterItsAnswerUnlessItAsksForKeepAlive() {
        var machine = accepted()
        _ = receive(&machine, "GET / HTTP/1.0\r\n\r\n", at: 101)
        let (plan, after) = answer(&machine, at: 102)
        #expect(plan == .send(keepAlive: false, framing: .length(2), omitBody: false))
        #expect(after == [.closeAfterWrites])
        #expect(machine.state == .closing)
    }

    @Test func headAnswersLeaveTheBodyOut() {
        var machine = accepted()
        _ = receive(&machine, "HEAD / HTTP/1.1\r\n\r\n", at: 101)
        #expect(answer(&machine, at: 102).0 == .send(keepAlive: true, framing: .length(2), omitBody: true))
    }

    @Test func anAnswerThatClosesEndsTheConnection() {
        var machine = accepted()
        _ = receive(&machine, Self.get, at: 101)
        let (plan, after) = answer(&machine, keepAlive: false, at: 102)
        #expect(plan == .send(keepAlive: false, framing: .length(2), omitBody: false))
        #expect(after == [.closeAfterWrites])
    }

    // MARK: - Timeouts

    @Test func aConnectionThatSendsNothingClosesAtTheHeaderTimeoutFromAccept() {
        var machine = accepted()
        machine.timerFired(now: 110 * Self.second)
        #expect(drain(&machine) == [.close])
    }

    @Test func aHeadStartedAfterAcceptMustStillArriveByTheDeadlineFromAccept() {
        var machine = accepted()
        #expect(receive(&machine, "GET / HT", at: 109).isEmpty)
        machine.timerFired(now: 110 * Self.second)
        #expect(drain(&machine) == [.sendError(.requestTimeout, "request not received in time")])
    }

    @Test func idleConnectionsCloseAtTheIdleTimeoutAfterTheirLastAnswer() {
        var machine = accepted()
        _ = receive(&machine, Self.get, at: 101)
        _ = answer(&machine, at: 102)
        // The timer armed at accept fires first and finds a later deadline.
        machine.timerFired(now: 110 * Self.second)
        #expect(drain(&machine) == [.armTimer(at: 162 * Self.second)])
        machine.timerFired(now: 162 * Self.second)
        #expect(drain(&machine) == [.close])
    }

    @Test func theNextRequestOfAKeepAliveConnectionGetsTheHeaderTimeoutFromItsFirstByte() {
        var machine = accepted()
        _ = receive(&machine, Self.get, at: 101)
        _ = answer(&machine, at: 102)
        machine.timerFired(now: 110 * Self.second)
        _ = drain(&machine)
        // Idle until 150 s, then half a head: its deadline (160 s) is earlier than the armed idle one.
        #expect(receive(&machine, "GET /", at: 150) == [.armTimer(at: 160 * Self.second)])
        machine.timerFired(now: 160 * Self.second)
        #expect(drain(&machine) == [.sendError(.requestTimeout, "request not received in time")])
    }

    @Test func stalledBodiesTimeOutWith408() {
        var machine = accepted()
        #expect(receive(&machine, "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", at: 101).count == 1)
        machine.headRouted(.standard, now: 101 * Self.second)
        #expect(drain(&machine).isEmpty)  // body deadline 131 s is later than the armed 110 s
        machine.timerFired(now: 110 * Self.second)
        #expect(drain(&machine) == [.armTimer(at: 131 * Self.second)])
        machine.timerFired(now: 131 * Self.second)
        #expect(drain(&machine) == [.sendError(.requestTimeout, "request not received in time")])
    }

    @Test func whileAHandlerWorksTheTimerOnlyLooksAgainLater() {
        var machine = accepted()
        _ = receive(&machine, Self.get, at: 101)
        machine.timerFired(now: 110 * Self.second)
        #expect(drain(&machine) == [.armTimer(at: 170 * Self.second)])
    }

    // MARK: - Bodies, limits, Expect, malformed input

    @Test func aDeclaredBodyOverTheRoutesLimitIs413WithoutReadingIt() {
        var machine = accepted()
        _ = receive(&machine, "POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", at: 101)
        machine.headRouted(HTTPRequestBodyPolicy(limit: 10), now: 101 * Self.second)
        #expect(drain(&machine) == [.sendError(.payloadTooLarge, "request body is larger than 10 bytes")])
        #expect(machine.state == .closing)
        #expect(receive(&machine, "more", at: 102).isEmpty)
    }

    @Test func expectContinueIsAnsweredOnceTheHeadIsRouted() {
        var machine = accepted()
        let text = "POST / HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"
        #expect(receive(&machine, text, at: 101) == [.routeHead(head(text))])
        machine.headRouted(.standard, now: 101 * Self.second)
        #expect(drain(&machine) == [.sendContinue])
        #expect(receive(&machine, "ping", at: 102) == [.dispatch(head(text), body: Array("ping".utf8))])
    }

    @Test func malformedRequestsAreAnsweredWithTheirStatus() {
        var machine = accepted()
        #expect(
            receive(&machine, "GET / HTTP/3.0\r\n\r\n", at: 101) == [
                .sendError(.httpVersionNotSupported, "HTTP/3.0 is not supported")
            ])
    }

    // MARK: - Streamed request bodies

    /// A machine answering a streamed `POST` whose body is `length` bytes (chunked when `nil`).
    private func streaming(length: Int?) -> (Machine, HTTPRequestHead) {
        var machine = accepted()
        let framing = length.map { "Content-Length: \($0)" } ?? "Transfer-Encoding: chunked"
        let text = "POST /up HTTP/1.1\r\n\(framing)\r\n\r\n"
        #expect(receive(&machine, text, at: 101) == [.routeHead(head(text))])
        machine.headRouted(HTTPRequestBodyPolicy(limit: 10_000, streamed: true), now: 101 * Self.second)
        #expect(drain(&machine) == [.dispatchStreaming(head(text))])
        return (machine, head(text))
    }

    @Test func aStreamedBodyIsHandedOverAsItArrivesThenEnds() {
        var (machine, _) = streaming(length: 8)
        #expect(receive(&machine, "abcd", at: 102) == [.bodyChunk(Array("abcd".utf8))])
        #expect(receive(&machine, "efgh", at: 103) == [.bodyChunk(Array("efgh".utf8)), .bodyEnd])
        #expect(machine.state == .responding(.complete))
        let (plan, _) = answer(&machine, at: 104)
        #expect(plan == .send(keepAlive: true, framing: .length(2), omitBody: false))
    }

    @Test func aClientWaitingForContinueIsToldToSendOnlyOnceTheHandlerReads() {
        var machine = accepted()
        let text = "POST /up HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"
        _ = receive(&machine, text, at: 101)
        machine.headRouted(HTTPRequestBodyPolicy(limit: 100, streamed: true), now: 101 * Self.second)
        #expect(drain(&machine) == [.pauseReading, .dispatchStreaming(head(text))])
        // Until the handler reads, the time is the handler's.
        machine.timerFired(now: 110 * Self.second)
        #expect(drain(&machine) == [.armTimer(at: 170 * Self.second)])
        machine.bodyDemanded(now: 120 * Self.second)
        #expect(drain(&machine) == [.sendContinue, .resumeReading, .armTimer(at: 150 * Self.second)])
        #expect(receive(&machine, "ping", at: 121) == [.bodyChunk(Array("ping".utf8)), .bodyEnd])
    }

    @Test func aHandlerThatAnswersBeforeReadingNeverHasTheBodySent() {
        var machine = accepted()
        _ = receive(&machine, "POST /up HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n", at: 101)
        machine.headRouted(HTTPRequestBodyPolicy(streamed: true), now: 101 * Self.second)
        _ = drain(&machine)
        let (plan, after) = answer(&machine, at: 102)
        #expect(plan == .send(keepAlive: false, framing: .length(2), omitBody: false))
        #expect(
            after == [
                .bodyFailed(HTTPStreamError(.connectionClosed, "the response ended the connection before the body")),
                .closeAfterWrites,
            ])
        machine.bodyDemanded(now: 103 * Self.second)
        #expect(drain(&machine).isEmpty)
    }

    @Test func aHandlerThatFallsBehindPausesReadingUntilItCatchesUp() {
        var (machine, _) = streaming(length: 1000)
        let piece = String(repeating: "x", count: 200)
        #expect(receive(&machine, piece, at: 102) == [.bodyChunk(Array(piece.utf8))])
        // 400 bytes handed over and not taken: past the high-water mark of 300.
        #expect(receive(&machine, piece, at: 102) == [.bodyChunk(Array(piece.utf8)), .pauseReading])
        #expect(machine.state == .responding(.streamingPaused))
        // Bytes that arrive meanwhile wait in the decoder.
        #expect(receive(&machine, piece, at: 102).isEmpty)
        #expect(machine.bufferedByteCount == 600)
        // Taking 200 leaves 200: still above the low-water mark of 100.
        machine.bodyConsumed(200, now: 103 * Self.second)
        #expect(drain(&machine).isEmpty)
        machine.bodyConsumed(150, now: 103 * Self.second)
        #expect(drain(&machine) == [.resumeReading, .bodyChunk(Array(piece.utf8))])
        #expect(machine.state == .responding(.streaming))
    }

    @Test func aPausedStreamDoesNotTimeOutButAResumedOneDoes() {
        var (machine, _) = streaming(length: 1000)
        let piece = String(repeating: "x", count: 400)
        _ = receive(&machine, piece, at: 102)
        #expect(machine.state == .responding(.streamingPaused))
        machine.timerFired(now: 110 * Self.second)
        #expect(drain(&machine) == [.armTimer(at: 170 * Self.second)])
        machine.bodyConsumed(400, now: 150 * Self.second)
        #expect(drain(&machine) == [.resumeReading])
        machine.timerFired(now: 170 * Self.second)
        #expect(drain(&machine) == [.armTimer(at: 180 * Self.second)])
        machine.timerFired(now: 180 * Self.second)
        #expect(
            drain(&machine) == [
                .bodyFailed(HTTPStreamError(.bodyTimedOut, "request body not received in time")),
                .sendError(.requestTimeout, "request body not received in time"),
            ])
    }

    @Test func aStreamedBodyOverItsLimitFailsTheStreamAndIsAnswered413() {
        var (machine, _) = streaming(length: nil)
        #expect(receive(&machine, "5\r\nhello\r\n", at: 102) == [.bodyChunk(Array("hello".utf8))])
        let actions = receive(&machine, "2710\r\n", at: 102)  // 10,000 more bytes: past 10,000 in all
        #expect(actions.count == 2)
        #expect(
            actions.first.map { if case .bodyFailed(let error) = $0 { error.code == .bodyTooLarge } else { false } }
                == true)
        #expect(actions.last == .sendError(.payloadTooLarge, "request body is larger than 10000 bytes"))
    }

    @Test func aClientThatStopsMidBodyFailsTheStreamAndGetsTheAnswerThenTheClose() {
        var (machine, _) = streaming(length: 100)
        _ = receive(&machine, "abc", at: 102)
        machine.inputClosed()
        #expect(
            drain(&machine) == [
                .bodyFailed(HTTPStreamError(.clientAborted, "the client stopped sending before the body ended"))
            ])
        let (plan, after) = answer(&machine, at: 103)
        #expect(plan == .send(keepAlive: false, framing: .length(2), omitBody: false))
        #expect(after == [.closeAfterWrites])
    }

    @Test func anAnswerBeforeTheWholeBodyEndsTheConnection() {
        var (machine, _) = streaming(length: 100)
        _ = receive(&machine, "abc", at: 102)
        let (plan, after) = answer(&machine, at: 103)
        #expect(plan == .send(keepAlive: false, framing: .length(2), omitBody: false))
        #expect(
            after == [
                .bodyFailed(HTTPStreamError(.connectionClosed, "the response ended the connection before the body")),
                .closeAfterWrites,
            ])
    }

    @Test func aClosedConnectionFailsTheStream() {
        var (machine, _) = streaming(length: 100)
        machine.connectionClosed()
        #expect(
            drain(&machine) == [
                .bodyFailed(HTTPStreamError(.connectionClosed, "the connection closed before the body ended"))
            ])
        #expect(machine.responseStarted(keepAliveRequested: true, bodyLength: 2) == .discard)
    }

    // MARK: - Streamed answers

    @Test func streamedAnswersOfUnknownLengthAreChunkedOrForHTTP10SentUntilClose() {
        var machine = accepted()
        _ = receive(&machine, Self.get, at: 101)
        #expect(
            machine.responseStarted(keepAliveRequested: true, bodyLength: nil)
                == .send(keepAlive: true, framing: .chunked, omitBody: false))
        machine.responseCompleted(now: 102 * Self.second, writesPending: false)
        _ = receive(&machine, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", at: 103)
        #expect(
            machine.responseStarted(keepAliveRequested: true, bodyLength: nil)
                == .send(keepAlive: false, framing: .untilClose, omitBody: false))
    }

    @Test func aStreamedAnswerThatFailsClosesTheConnection() {
        var machine = accepted()
        _ = receive(&machine, Self.get, at: 101)
        _ = machine.responseStarted(keepAliveRequested: true, bodyLength: nil)
        machine.responseAborted()
        #expect(drain(&machine) == [.close])
    }

    // MARK: - Half-close, shutdown, upgrade

    @Test func endOfInputClosesAnIdleConnectionAndLetsABusyOneAnswerFirst() {
        var idle = accepted()
        idle.inputClosed()
        #expect(drain(&idle) == [.close])

        var busy = accepted()
        _ = receive(&busy, Self.get, at: 101)
        busy.inputClosed()
        #expect(drain(&busy).isEmpty)
        let (plan, after) = answer(&busy, at: 102)
        #expect(plan == .send(keepAlive: false, framing: .length(2), omitBody: false))
        #expect(after == [.closeAfterWrites])
    }

    @Test func shutdownClosesIdleConnectionsAndBusyOnesAfterTheirAnswer() {
        var idle = accepted()
        idle.shutdownRequested()
        #expect(drain(&idle) == [.close])

        var busy = accepted()
        _ = receive(&busy, Self.get, at: 101)
        busy.shutdownRequested()
        #expect(drain(&busy).isEmpty)
        #expect(answer(&busy, at: 102).1 == [.closeAfterWrites])
    }

    @Test func upgradesSwitchUnlessTheServerIsShuttingDown() {
        var machine = accepted()
        _ = receive(&machine, Self.get + "early bytes", at: 101)
        let switched = machine.upgradeRequested(shuttingDown: false)
        #expect(switched)
        #expect(machine.state == .upgraded)
        #expect(machine.takeBufferedBytes() == Array("early bytes".utf8))
        machine.timerFired(now: 200 * Self.second)
        #expect(drain(&machine).isEmpty)

        var refused = accepted()
        _ = receive(&refused, Self.get, at: 101)
        let refusedSwitch = refused.upgradeRequested(shuttingDown: true)
        #expect(!refusedSwitch)
        #expect(drain(&refused) == [.sendError(.serviceUnavailable, "server is shutting down")])
    }
}
