import BmobIO
import BmobWire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bmob-bench live-queries`: live-query update latency and mutation throughput of the sync door (issue 21).
///
/// Phases, in order:
/// 1. a warm-up create (the class exists, the write path is warm);
/// 2. setup in parallel batches: per subscriber, the upgrade to `/apps/<id>/api/1/sync`, then `Connect` and a
///    `ModifyQuerySet` adding `<table>:list` with `where: {"group": g}`, `order: "-createdAt"`, `limit`; the
///    subscriber counts once its first `QueryUpdated` arrives. Subscriber `i` takes group `i % queries`, so
///    every distinct query has the same number of subscribers;
/// 3. a settle time;
/// 4. REST creates `{"group":g,"seq":n,"sentAt":ns}` at `rate` for `seconds` from a writer thread
///    (``FanoutWriter`` with a grouped ``SocketIODialect``: byte for byte the writes of the socket.io reference,
///    `bmob-bench fanout --groups`), the group a fixed function of `n` (``LiveQueryGroups``). For every
///    (write, subscriber of its group) pair the latency runs from the write's *scheduled* send time to the read
///    of the first `Transition` whose result holds `"seq":n`; then a drain until every pair arrived or the drain
///    time passed; missed = pairs that never arrived;
/// 5. the subscribers close, and the throughput loads run one after another (``ThroughputLoad``): REST creates
///    over `inFlight` keep-alive connections, `<table>:add` mutations pipelined `inFlight` deep on one socket,
///    and one mutation at a time on each of `inFlight` sockets.
///
/// One thread receives for every subscriber through a ``ManyWebSocketClient`` (the epoll selector of BmobIO, one
/// shared read buffer, each frame handled where it lies); WebSocket pings are answered, the door's `Ping`s need
/// nothing.
final class LiveQueryBenchmark: ManyWebSocketClientDelegate {
    private let options: LiveQueryOptions
    private let client: ManyWebSocketClient
    private var connections: [LiveQueryConnection]
    private var measuring = false

    // Setup
    private var firstResults = LatencyHistogram()

    // Deliveries
    private var histogram = LatencyHistogram()
    private var received = 0
    private var foreign = 0
    private var transitions = 0
    private var lastDelivery: UInt64 = 0
    /// The writer's schedule, to compute each write's scheduled send time from its number.
    private var scheduleStart: UInt64 = 0
    private var scheduleInterval = 0.0
    private var scheduledWrites = 0

    /// Runs the subcommand and exits.
    ///
    /// - Parameter arguments: the command line after `live-queries`.
    static func main(_ arguments: [String]) -> Never {
        let options = LiveQueryOptions.parse(arguments)
        raiseDescriptorLimit(needed: options.subscribers + options.inFlight + 64)
        let benchmark = LiveQueryBenchmark(options: options)
        let result = benchmark.run()
        printJSON(result.jsonObject)
        exit(result.subscribersSubscribed > 0 ? 0 : 1)
    }

    private init(options: LiveQueryOptions) {
        self.options = options
        client = ManyWebSocketClient(host: options.host, port: options.port, logPrefix: "live-queries")
        connections = (0..<options.subscribers).map { LiveQueryConnection(token: $0, group: $0 % options.queries) }
        client.delegate = self
    }

    // MARK: - Phases

    private func run() -> LiveQueryResult {
        var result = LiveQueryResult()
        result.subscribersRequested = options.subscribers
        result.queries = options.queries
        let dialect = SocketIODialect(
            appId: options.appId, restKey: options.restKey, table: options.table, groups: options.queries)
        let writer = FanoutWriter(address: client.address, host: options.host, dialect: dialect)

        // 1. Warm-up.
        if let failure = writer.post(seq: -1, sentAt: monotonicNanoseconds()) {
            fail("the warm-up create failed: \(failure)")
        }

        // 2. Setup.
        let setupStart = client.setUp(
            count: connections.count, batch: options.load.batch, timeout: options.load.setupTimeout
        ) { open(connections[$0]) }
        for connection in connections where connection.state.isSettingUp || connection.state == .idle {
            drop(connection, kind: "setup timeout", detail: "no first result within \(options.load.setupTimeout) s")
        }
        result.setupSeconds = seconds(since: setupStart)
        result.firstResultP50Us = Double(firstResults.percentile(0.5)) / 1000
        result.firstResultMaxUs = Double(firstResults.maximum) / 1000
        client.logSetupFinished(seconds: result.setupSeconds)

        // 3. Settle.
        client.serviceEvents(forNanoseconds: nanoseconds(options.load.settle))

        // 4. Measure.
        measuring = true
        result.subscribersSubscribed = client.progress.subscribed
        var subscribersOfGroup = [Int](repeating: 0, count: options.queries)
        for connection in connections where connection.state == .subscribed { subscribersOfGroup[connection.group] += 1 }
        let serverBefore = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        let clientBefore = ProcessSample.ownCPUSeconds()
        scheduleStart = monotonicNanoseconds() + 100_000_000
        scheduleInterval = 1e9 / options.load.rate
        scheduledWrites = max(1, Int((options.load.rate * options.load.seconds).rounded()))
        writer.start(rate: options.load.rate, seconds: options.load.seconds, at: scheduleStart)
        let report = client.awaitReport(of: writer)
        let expected = (1...scheduledWrites).reduce(0) {
            $0 + subscribersOfGroup[LiveQueryGroups.group(ofWrite: $1, groups: options.queries)]
        }
        client.drain(until: report.end + nanoseconds(options.load.drain)) { received < expected }
        let serverAfter = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        let clientAfter = ProcessSample.ownCPUSeconds()
        measuring = false

        result.writes = WriterOutcome(report: report, includingLagP99: false)
        result.deliveries = DeliveryWindow(
            rate: options.load.rate, seconds: options.load.seconds, expected: expected, received: received,
            lastDelivery: lastDelivery, report: report)
        result.foreignWrites = foreign
        result.transitions = transitions
        result.latency = LatencySummary(histogram, includingP999: false)
        if let serverBefore, let serverAfter {
            result.serverCPUSeconds = serverAfter.cpuSeconds - serverBefore.cpuSeconds
            if report.succeeded > 0 {
                result.serverCPUUsPerWrite = result.serverCPUSeconds! * 1e6 / Double(report.succeeded)
            }
        }
        result.clientCPUSeconds = clientAfter - clientBefore
        result.subscribersFailed = client.progress.failed
        result.subscribersDroppedWhileMeasuring = client.progress.droppedWhileMeasuring
        result.pingsAnswered = client.pingsAnswered
        client.log(
            "measured: \(received) of \(expected) updates, p50 \(result.latency.p50Us / 1000) ms, "
                + "p99 \(result.latency.p99Us / 1000) ms")

        // 5. Throughput, with the subscribers gone.
        for connection in connections { client.close(connection.socket) }
        if options.throughputSeconds > 0 {
            usleep(500_000)
            let loads: [(ThroughputLoad.Kind, Int, Int)] = [
                (.restCreates, options.inFlight, 1), (.mutations, 1, options.inFlight), (.mutations, options.inFlight, 1),
            ]
            for (kind, sockets, depth) in loads {
                let load = ThroughputLoad(
                    kind: kind, sockets: sockets, inFlightPerSocket: depth, options: options, address: client.address)
                let outcome = load.run(seconds: options.throughputSeconds)
                client.log("throughput: \(outcome.name): \(Int(outcome.perSecond))/s, \(outcome.failed) failed")
                result.throughput.append(outcome)
                usleep(500_000)
            }
        }
        result.errors = client.errors
        return result
    }

    // MARK: - Setup

    /// Starts the upgrade of `connection` to the sync door.
    private func open(_ connection: LiveQueryConnection) {
        let request = client.upgradeRequest(connection.socket, target: "/apps/\(options.appId)/api/1/sync")
        connection.state = .upgradeConnecting
        client.connect(connection.socket, request: request)
    }

    func handleEvents(token: Int, events: SelectorEventSet) {
        let connection = connections[token]
        guard connection.socket.fd >= 0 else { return }
        switch connection.state {
        case .upgradeConnecting:
            guard client.connectSucceeded(connection.socket, events: events) else { return }
            connection.state = .upgradeReading
            client.flush(connection.socket)
        case .idle, .failed:
            return
        default:
            client.serviceOpen(connection.socket, events: events)
        }
    }

    func closedByServer(token: Int) {
        let connection = connections[token]
        drop(connection, kind: "closed by the server (\(connection.state))", detail: "EOF")
    }

    func consume(token: Int, bytes: UnsafeRawBufferPointer, now: UInt64) {
        let connection = connections[token]
        if connection.state == .upgradeReading {
            connection.socket.inbox += bytes
            finishUpgrade(connection, now: now)
        } else {
            client.receiveFrames(connection.socket, bytes, now: now)
        }
    }

    /// Checks the 101 response, then sends `Connect` and the subscription; frames may follow in the same read.
    private func finishUpgrade(_ connection: LiveQueryConnection, now: UInt64) {
        guard let rest = client.takeUpgradeResponse(connection.socket) else { return }
        connection.state = .subscribing
        connection.subscribeSentAt = monotonicNanoseconds()
        client.send(connection.socket, payload: SyncClientFrames.connect(using: &client.random))
        client.send(
            connection.socket,
            payload: SyncClientFrames.subscribe(table: options.table, group: connection.group, limit: options.limit))
        if !rest.isEmpty, connection.socket.fd >= 0 {
            rest.withUnsafeBytes { client.receiveFrames(connection.socket, $0, now: now) }
        }
    }

    // MARK: - Messages

    func handleTextMessage(token: Int, payload: UnsafeRawBufferPointer, frameBytes: Int, now: UInt64) {
        let connection = connections[token]
        switch SyncPacket.classify(payload) {
        case .transition(let updated, let failed):
            if failed {
                client.errors.record(kind: "QueryFailed", detail: String(decoding: payload.prefix(300), as: UTF8.self))
            }
            guard updated else { return }
            if connection.state == .subscribing {
                connection.state = .subscribed
                client.progress.countSubscribed()
                firstResults.record(now - connection.subscribeSentAt)
            }
            guard measuring else { return }
            transitions += 1
            SyncPacket.forEachNumber(after: "seq", in: payload) { seq in
                delivered(connection, seq: seq, now: now)
            }
        case .ping:
            break
        case .transitionChunk:
            client.errors.record(
                kind: "TransitionChunk (not reassembled)", detail: String(decoding: payload.prefix(200), as: UTF8.self))
        case .mutationResponse:
            client.errors.record(
                kind: "unexpected MutationResponse", detail: String(decoding: payload.prefix(200), as: UTF8.self))
        case .unexpected(let text):
            client.errors.record(kind: "unexpected message", detail: text)
        }
    }

    /// Counts write `seq` as shown to `connection` now, once.
    private func delivered(_ connection: LiveQueryConnection, seq: Int, now: UInt64) {
        guard seq >= 1, seq <= scheduledWrites, connection.seen.insert(seq).inserted else { return }
        guard LiveQueryGroups.group(ofWrite: seq, groups: options.queries) == connection.group else {
            foreign += 1
            return
        }
        received += 1
        let due = scheduleStart + UInt64((Double(seq - 1) * scheduleInterval).rounded())
        histogram.record(now > due ? now - due : 0)
        lastDelivery = now
    }

    // MARK: - Errors

    func drop(token: Int, kind: String, detail: String) {
        drop(connections[token], kind: kind, detail: detail)
    }

    /// Closes the connection after an error, counting it once under `kind`.
    private func drop(_ connection: LiveQueryConnection, kind: String, detail: String) {
        guard connection.state != .failed else { return }
        client.errors.record(kind: kind, detail: detail)
        client.progress.countFailed(
            wasSettingUp: connection.state.isSettingUp, wasSubscribed: connection.state == .subscribed,
            measuring: measuring)
        connection.state = .failed
        client.discard(connection.socket)
    }
}
