import BmobIO
import BmobWire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bmob-bench fanout` and `bmob-bench channel-fanout`: opens many WebSockets to a server, subscribes each to
/// one stream of events (socket.io 0.9: one class's `updateTable` events; channels: one public Pusher channel),
/// measures the server's memory per idle connection, then publishes events at a steady rate (REST creates, or
/// signed channel publishes) and counts every event each connection receives, with its publish → event
/// latency. The protocol's own parts are its ``FanoutDialect``.
///
/// Phases, in order:
/// 1. a warm-up publish (the class exists, the write path is warm), then the server's baseline RSS;
/// 2. setup in parallel batches: per connection, for socket.io `GET /socket.io/1/?t=…` on a short-lived
///    connection (as socket.io clients do it over XHR), then the WebSocket upgrade on a new one; once the
///    server says the connection is ready (`client_send_data`, `pusher:connection_established`), the
///    subscription, whose answer (an ack of `5:1+::`, `pusher_internal:subscription_succeeded`) tells when the
///    server has registered it;
/// 3. a settle time, then the server's idle RSS;
/// 4. probe events, one at a time, that every subscriber must receive before measuring starts;
/// 5. events at `rate` for `seconds` from a writer thread, while this thread receives; then a drain until
///    every expected delivery arrived or the drain time passed; the server's RSS and CPU again.
///
/// One thread receives for every connection through a ``ManyWebSocketClient`` (the epoll selector of BmobIO, one
/// shared read buffer, each frame handled where it lies); heartbeats (`2::`, `pusher:ping`) and WebSocket pings
/// are answered.
final class FanoutBenchmark: ManyWebSocketClientDelegate {
    private enum Phase {
        case setup, idle, probe, measure
    }

    private let options: FanoutOptions
    private let dialect: any FanoutDialect
    private let client: ManyWebSocketClient
    private var connections: [FanoutConnection]
    private var phase = Phase.setup

    // Deliveries
    private var histogram = LatencyHistogram()
    private var received = 0
    private var outOfOrder = 0
    private var lastDelivery: UInt64 = 0
    private var probeReceived = 0
    private var lastProbeDelivery: UInt64 = 0
    /// Probe creates sent one at a time before measuring; "one event to all, idle" is their median.
    private static let probes = 5
    /// The size of the frame being handled, header included (the probe's is reported).
    private var currentFrameBytes = 0
    private var probeFrameBytes: Int?

    // Protocol
    private var heartbeatsAnswered = 0

    /// Runs the subcommand and exits.
    ///
    /// - Parameters:
    ///   - arguments: the command line after `fanout` or `channel-fanout`.
    ///   - channels: whether the subcommand is `channel-fanout`.
    static func main(_ arguments: [String], channels: Bool) -> Never {
        let options = FanoutOptions.parse(arguments, channels: channels)
        raiseDescriptorLimit(needed: options.connections + 64)
        let benchmark = FanoutBenchmark(options: options)
        let result = benchmark.run()
        printJSON(result.jsonObject)
        exit(result.connectionsSubscribed > 0 ? 0 : 1)
    }

    private init(options: FanoutOptions) {
        self.options = options
        dialect = options.dialect
        client = ManyWebSocketClient(host: options.host, port: options.port, logPrefix: "fanout")
        connections = (0..<options.connections).map { FanoutConnection(token: $0) }
        client.delegate = self
    }

    // MARK: - Phases

    private func run() -> FanoutResult {
        var result = FanoutResult()
        result.connectionsRequested = options.connections
        let writeAddress = SocketAddress(host: options.host, port: options.writePort ?? options.port)!
        let writer = FanoutWriter(address: writeAddress, host: options.host, dialect: dialect)

        // 1. Warm-up and baseline.
        if let failure = writer.post(seq: -1, sentAt: monotonicNanoseconds()) {
            fail("the warm-up publish failed: \(failure)")
        }
        usleep(200_000)
        let baseline = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        result.serverRSSBaselineKiB = baseline?.residentKiB

        // 2. Setup.
        let setupStart = client.setUp(
            count: connections.count, batch: options.load.batch, timeout: options.load.setupTimeout
        ) { open(connections[$0]) }
        for connection in connections where connection.state.isSettingUp || connection.state == .idle {
            drop(connection, kind: "setup timeout", detail: "not subscribed within \(options.load.setupTimeout) s")
        }
        result.setupSeconds = seconds(since: setupStart)
        client.logSetupFinished(seconds: result.setupSeconds)

        // 3. Settle, then idle memory.
        phase = .idle
        client.serviceEvents(forNanoseconds: nanoseconds(options.load.settle))
        let subscribed = client.progress.subscribed
        let idle = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        result.serverRSSIdleKiB = idle?.residentKiB
        if let baseline, let idle, subscribed > 0 {
            result.bytesPerIdleConnection = Double(idle.residentKiB - baseline.residentKiB) * 1024 / Double(subscribed)
        }

        // 4. Probes: one create at a time with nothing else going on, each awaited on every connection.
        phase = .probe
        var probeTimes: [Double] = []
        var fewestReceived = client.progress.subscribed
        for _ in 0..<Self.probes {
            for connection in connections { connection.gotProbe = false }
            probeReceived = 0
            let probeSent = monotonicNanoseconds()
            if let failure = writer.post(seq: 0, sentAt: probeSent) {
                client.errors.record(kind: "probe publish failed", detail: failure)
                fewestReceived = 0
                break
            }
            let deadline = probeSent + 30_000_000_000
            while probeReceived < client.progress.subscribed && monotonicNanoseconds() < deadline {
                client.serviceEvents(timeoutNanoseconds: 50_000_000)
            }
            fewestReceived = min(fewestReceived, probeReceived)
            if probeReceived > 0 { probeTimes.append(Double(lastProbeDelivery - probeSent) / 1e6) }
            let pauseEnd = monotonicNanoseconds() + 200_000_000
            while monotonicNanoseconds() < pauseEnd { client.serviceEvents(timeoutNanoseconds: 20_000_000) }
        }
        if !probeTimes.isEmpty {
            result.probeFanoutMilliseconds = probeTimes.sorted()[probeTimes.count / 2]
            result.probeFanoutRoundsMilliseconds = probeTimes
        }
        result.probeFrameBytes = probeFrameBytes
        result.probeReceived = fewestReceived
        client.log("probes: at least \(fewestReceived) of \(client.progress.subscribed) received each")

        // 5. Measure.
        phase = .measure
        result.connectionsSubscribed = client.progress.subscribed
        let measured = connections.filter { $0.state == .subscribed }
        let serverBefore = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        let clientBefore = ProcessSample.ownCPUSeconds()
        let start = monotonicNanoseconds() + 100_000_000
        writer.start(rate: options.load.rate, seconds: options.load.seconds, at: start)
        let report = client.awaitReport(of: writer)
        let expected = report.succeeded * options.connections
        let reachable = report.succeeded * client.progress.subscribed
        client.drain(until: report.end + nanoseconds(options.load.drain)) { received < reachable }
        let serverAfter = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        let clientAfter = ProcessSample.ownCPUSeconds()

        result.serverRSSAfterKiB = serverAfter?.residentKiB
        result.writes = WriterOutcome(report: report, includingLagP99: true)
        result.deliveries = DeliveryWindow(
            rate: options.load.rate, seconds: options.load.seconds, expected: expected, received: received,
            lastDelivery: lastDelivery, report: report)
        result.outOfOrder = outOfOrder
        result.receivedPerConnectionMin = measured.map(\.received).min() ?? 0
        result.receivedPerConnectionMax = measured.map(\.received).max() ?? 0
        result.deliveriesPerSecond = Double(received) / result.deliveries.windowSeconds
        result.latency = LatencySummary(histogram, includingP999: true)
        if let serverBefore, let serverAfter {
            result.serverCPUSeconds = serverAfter.cpuSeconds - serverBefore.cpuSeconds
            if received > 0 { result.serverCPUUsPerDelivery = result.serverCPUSeconds! * 1e6 / Double(received) }
        }
        result.clientCPUSeconds = clientAfter - clientBefore
        result.connectionsFailed = client.progress.failed
        result.connectionsDroppedWhileMeasuring = client.progress.droppedWhileMeasuring
        result.heartbeatsAnswered = heartbeatsAnswered
        result.pingsAnswered = client.pingsAnswered
        result.errors = client.errors
        client.log("measured: \(received) of \(expected) deliveries, p99 \(result.latency.p99Us / 1000) ms")
        return result
    }

    // MARK: - Setup

    /// Starts the setup of `connection`: the socket.io handshake when the protocol has one, else the upgrade.
    private func open(_ connection: FanoutConnection) {
        if let request = dialect.handshakeRequest(hostHeader: client.hostHeader) {
            connection.state = .handshakeConnecting
            client.connect(connection.socket, request: Array(request.utf8))
        } else {
            upgrade(connection, session: nil)
        }
    }

    /// Opens the WebSocket of `connection`, after its handshake when the protocol has one.
    private func upgrade(_ connection: FanoutConnection, session: String?) {
        let request = client.upgradeRequest(connection.socket, target: dialect.upgradeTarget(session: session))
        connection.state = .upgradeConnecting
        client.connect(connection.socket, request: request)
    }

    func handleEvents(token: Int, events: SelectorEventSet) {
        let connection = connections[token]
        guard connection.socket.fd >= 0 else { return }
        switch connection.state {
        case .handshakeConnecting, .upgradeConnecting:
            guard client.connectSucceeded(connection.socket, events: events) else { return }
            connection.state = connection.state == .handshakeConnecting ? .handshakeReading : .upgradeReading
            client.flush(connection.socket)
        case .idle, .failed:
            return
        default:
            client.serviceOpen(connection.socket, events: events)
        }
    }

    func closedByServer(token: Int) {
        let connection = connections[token]
        if connection.state == .handshakeReading {
            finishHandshake(connection, closed: true)
        } else {
            drop(connection, kind: "closed by the server (\(stateName(connection.state)))", detail: "EOF")
        }
    }

    func consume(token: Int, bytes: UnsafeRawBufferPointer, now: UInt64) {
        let connection = connections[token]
        switch connection.state {
        case .handshakeReading:
            connection.socket.inbox += bytes
            finishHandshake(connection, closed: false)
        case .upgradeReading:
            connection.socket.inbox += bytes
            finishUpgrade(connection, now: now)
        case .awaitingReady, .subscribing, .subscribed:
            client.receiveFrames(connection.socket, bytes, now: now)
        default:
            return
        }
    }

    /// Takes the session id from a complete handshake response and starts the upgrade.
    private func finishHandshake(_ connection: FanoutConnection, closed: Bool) {
        let inbox = connection.socket.inbox
        let head: HTTPResponseScanner.Head?
        do {
            head = try HTTPResponseScanner.scan(inbox)
        } catch {
            drop(connection, kind: "handshake: malformed response", detail: "\(error)")
            return
        }
        guard let head, let length = head.contentLength, inbox.count >= head.length + length else {
            if closed { drop(connection, kind: "handshake: closed before the response", detail: "EOF in handshake") }
            return
        }
        guard head.head.status.code == 200 else {
            drop(
                connection, kind: "handshake: HTTP \(head.head.status.code)",
                detail: String(decoding: inbox, as: UTF8.self))
            return
        }
        let body = String(decoding: inbox[head.length..<(head.length + length)], as: UTF8.self)
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 4, !fields[0].isEmpty, fields[3].split(separator: ",").contains("websocket") else {
            drop(connection, kind: "handshake: unexpected body", detail: body)
            return
        }
        client.close(connection.socket)
        upgrade(connection, session: String(fields[0]))
    }

    /// Checks the 101 response; frames may follow it in the same read.
    private func finishUpgrade(_ connection: FanoutConnection, now: UInt64) {
        guard let rest = client.takeUpgradeResponse(connection.socket) else { return }
        connection.state = .awaitingReady
        if !rest.isEmpty {
            rest.withUnsafeBytes { client.receiveFrames(connection.socket, $0, now: now) }
        }
    }

    // MARK: - Messages

    func handleTextMessage(token: Int, payload: UnsafeRawBufferPointer, frameBytes: Int, now: UInt64) {
        let connection = connections[token]
        currentFrameBytes = frameBytes
        switch dialect.classify(payload) {
        case .publication(let seq, let sentAt):
            delivered(connection, seq: seq, sentAt: sentAt, now: now)
        case .publicationWithoutFields:
            client.errors.record(
                kind: "event without seq or sentAt", detail: String(decoding: payload.prefix(300), as: UTF8.self))
        case .heartbeat:
            heartbeatsAnswered += 1
            client.send(connection.socket, payload: dialect.heartbeatReply)
        case .connect, .ignored:
            break
        case .ready:
            guard connection.state == .awaitingReady else { return }
            connection.state = .subscribing
            client.send(connection.socket, payload: dialect.subscribeFrame)
        case .ack(let id):
            guard connection.state == .subscribing, id == 1 else {
                client.errors.record(kind: "unexpected ack", detail: "ack \(id) in \(stateName(connection.state))")
                return
            }
            connection.state = .subscribed
            client.progress.countSubscribed()
        case .error(let reason):
            client.errors.record(kind: "error packet", detail: reason)
        case .disconnect:
            drop(connection, kind: "socket.io disconnect packet", detail: "0::")
        case .other:
            client.errors.record(
                kind: "unexpected packet", detail: String(decoding: payload.prefix(200), as: UTF8.self))
        }
    }

    private func delivered(_ connection: FanoutConnection, seq: Int, sentAt: UInt64, now: UInt64) {
        if seq == 0 {
            if !connection.gotProbe {
                connection.gotProbe = true
                probeReceived += 1
                lastProbeDelivery = now
                probeFrameBytes = currentFrameBytes
            }
            return
        }
        guard phase == .measure, seq > 0 else {
            client.errors.record(kind: "delivery outside the measurement", detail: "seq \(seq)")
            return
        }
        received += 1
        connection.received += 1
        if seq <= connection.lastSeq { outOfOrder += 1 } else { connection.lastSeq = seq }
        histogram.record(now > sentAt ? now - sentAt : 0)
        lastDelivery = now
    }

    // MARK: - Errors

    func drop(token: Int, kind: String, detail: String) {
        drop(connections[token], kind: kind, detail: detail)
    }

    /// Closes the connection after an error, counting it once under `kind`.
    private func drop(_ connection: FanoutConnection, kind: String, detail: String) {
        guard connection.state != .failed else { return }
        client.errors.record(kind: kind, detail: detail)
        client.progress.countFailed(
            wasSettingUp: connection.state.isSettingUp, wasSubscribed: connection.state == .subscribed,
            measuring: phase == .measure)
        connection.state = .failed
        client.discard(connection.socket)
    }

    private func stateName(_ state: FanoutConnection.State) -> String {
        "\(state)"
    }
}
