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
/// One thread receives for every subscriber through the epoll selector of BmobIO, reading into one shared
/// buffer and handling each frame where it lies; WebSocket pings are answered, the door's `Ping`s need nothing.
final class LiveQueryBenchmark {
    private let options: LiveQueryOptions
    private let address: SocketAddress
    private let selector: any Selector
    private var connections: [LiveQueryConnection]
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var random = FastRandom()
    private var measuring = false

    // Setup
    private var nextToOpen = 0
    private var settingUp = 0
    private var subscribed = 0
    private var failed = 0
    private var droppedWhileMeasuring = 0
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

    // Protocol
    private var pingsAnswered = 0
    private var errors: [String: Int] = [:]
    private var errorSamples: [String] = []

    /// Bytes read from the kernel at once.
    private static let readBufferSize = 256 * 1024

    /// Runs the subcommand and exits.
    ///
    /// - Parameter arguments: the command line after `live-queries`.
    static func main(_ arguments: [String]) -> Never {
        let options = LiveQueryOptions.parse(arguments)
        raiseDescriptorLimit(needed: options.subscribers + options.inFlight + 64)
        let benchmark = LiveQueryBenchmark(options: options)
        let result = benchmark.run()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(result) else { fail("cannot encode the result") }
        print(String(decoding: json, as: UTF8.self))
        exit(result.subscribersSubscribed > 0 ? 0 : 1)
    }

    private init(options: LiveQueryOptions) {
        self.options = options
        guard let address = SocketAddress(host: options.host, port: options.port) else {
            fail("--host must be a numeric address")
        }
        self.address = address
        do {
            selector = try SelectorKind.platformDefault.makeSelector()
        } catch {
            fail("cannot make a selector: \(error)")
        }
        connections = (0..<options.subscribers).map { LiveQueryConnection(token: $0, group: $0 % options.queries) }
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    // MARK: - Phases

    private func run() -> LiveQueryResult {
        var result = LiveQueryResult()
        result.subscribersRequested = options.subscribers
        result.queries = options.queries
        result.rate = options.rate
        result.seconds = options.seconds
        let dialect = SocketIODialect(
            appId: options.appId, restKey: options.restKey, table: options.table, groups: options.queries)
        let writer = FanoutWriter(address: address, host: options.host, dialect: dialect)

        // 1. Warm-up.
        if let failure = writer.post(seq: -1, sentAt: monotonicNanoseconds()) {
            fail("the warm-up create failed: \(failure)")
        }

        // 2. Setup.
        let setupStart = monotonicNanoseconds()
        let setupDeadline = setupStart + nanoseconds(options.setupTimeout)
        var lastReport = setupStart
        while nextToOpen < connections.count || settingUp > 0 {
            let now = monotonicNanoseconds()
            if now >= setupDeadline { break }
            openMore()
            serviceEvents(timeoutNanoseconds: 50_000_000)
            if now - lastReport >= 5_000_000_000 {
                lastReport = now
                log("setup: \(subscribed) subscribed, \(settingUp) in progress, \(failed) failed")
            }
        }
        for connection in connections where connection.state.isSettingUp || connection.state == .idle {
            drop(connection, kind: "setup timeout", detail: "no first result within \(options.setupTimeout) s")
        }
        result.setupSeconds = seconds(since: setupStart)
        result.firstResultP50Us = Double(firstResults.percentile(0.5)) / 1000
        result.firstResultMaxUs = Double(firstResults.maximum) / 1000
        log("setup: \(subscribed) subscribed in \(String(format: "%.1f", result.setupSeconds)) s, \(failed) failed")

        // 3. Settle.
        serviceEvents(forNanoseconds: nanoseconds(options.settle))

        // 4. Measure.
        measuring = true
        result.subscribersSubscribed = subscribed
        var subscribersOfGroup = [Int](repeating: 0, count: options.queries)
        for connection in connections where connection.state == .subscribed { subscribersOfGroup[connection.group] += 1 }
        let serverBefore = options.serverPID.flatMap(ProcessSample.current(pid:))
        let clientBefore = ProcessSample.ownCPUSeconds()
        scheduleStart = monotonicNanoseconds() + 100_000_000
        scheduleInterval = 1e9 / options.rate
        scheduledWrites = max(1, Int((options.rate * options.seconds).rounded()))
        writer.start(rate: options.rate, seconds: options.seconds, at: scheduleStart)
        var report: FanoutWriterReport?
        while report == nil {
            serviceEvents(timeoutNanoseconds: 20_000_000)
            report = writer.finishedReport
        }
        writer.join()
        guard let report else { fail("the writer stopped without a report") }
        let expected = (1...scheduledWrites).reduce(0) {
            $0 + subscribersOfGroup[LiveQueryGroups.group(ofWrite: $1, groups: options.queries)]
        }
        let drainDeadline = report.end + nanoseconds(options.drain)
        while received < expected && monotonicNanoseconds() < drainDeadline {
            serviceEvents(timeoutNanoseconds: 20_000_000)
        }
        let serverAfter = options.serverPID.flatMap(ProcessSample.current(pid:))
        let clientAfter = ProcessSample.ownCPUSeconds()
        measuring = false

        result.writesAttempted = report.attempted
        result.writesSucceeded = report.succeeded
        result.writesFailed = report.failed
        result.firstWriteFailure = report.firstFailure
        result.writeLagMaxUs = Double(report.lag.maximum) / 1000
        result.writeResponseP50Us = Double(report.responseTime.percentile(0.5)) / 1000
        result.writeResponseP99Us = Double(report.responseTime.percentile(0.99)) / 1000
        result.expected = expected
        result.received = received
        result.missed = expected - received
        result.foreignWrites = foreign
        result.transitions = transitions
        let window = max(options.seconds, lastDelivery > report.start ? Double(lastDelivery - report.start) / 1e9 : 0)
        result.windowSeconds = window
        result.drainSeconds = lastDelivery > report.end ? Double(lastDelivery - report.end) / 1e9 : 0
        result.latencyP50Us = Double(histogram.percentile(0.5)) / 1000
        result.latencyP90Us = Double(histogram.percentile(0.9)) / 1000
        result.latencyP99Us = Double(histogram.percentile(0.99)) / 1000
        result.latencyMaxUs = Double(histogram.maximum) / 1000
        if let serverBefore, let serverAfter {
            result.serverCPUSeconds = serverAfter.cpuSeconds - serverBefore.cpuSeconds
            if report.succeeded > 0 {
                result.serverCPUUsPerWrite = result.serverCPUSeconds! * 1e6 / Double(report.succeeded)
            }
        }
        result.clientCPUSeconds = clientAfter - clientBefore
        result.subscribersFailed = failed
        result.subscribersDroppedWhileMeasuring = droppedWhileMeasuring
        result.pingsAnswered = pingsAnswered
        log("measured: \(received) of \(expected) updates, p50 \(result.latencyP50Us / 1000) ms, p99 \(result.latencyP99Us / 1000) ms")

        // 5. Throughput, with the subscribers gone.
        for connection in connections { close(connection) }
        if options.throughputSeconds > 0 {
            usleep(500_000)
            let loads: [(ThroughputLoad.Kind, Int, Int)] = [
                (.restCreates, options.inFlight, 1), (.mutations, 1, options.inFlight), (.mutations, options.inFlight, 1),
            ]
            for (kind, sockets, depth) in loads {
                let load = ThroughputLoad(
                    kind: kind, sockets: sockets, inFlightPerSocket: depth, options: options, address: address)
                let outcome = load.run(seconds: options.throughputSeconds)
                log("throughput: \(outcome.name): \(Int(outcome.perSecond))/s, \(outcome.failed) failed")
                result.throughput.append(outcome)
                usleep(500_000)
            }
        }
        result.errors = errors
        result.errorSamples = errorSamples
        return result
    }

    private func serviceEvents(forNanoseconds duration: UInt64) {
        let end = monotonicNanoseconds() + duration
        while true {
            let now = monotonicNanoseconds()
            guard now < end else { return }
            serviceEvents(timeoutNanoseconds: min(end - now, 50_000_000))
        }
    }

    private func serviceEvents(timeoutNanoseconds: UInt64) {
        do {
            try selector.whenReady(timeoutNanoseconds: timeoutNanoseconds) { token, events in
                handle(connections[Int(token)], events: events)
            }
        } catch {
            fail("epoll_wait: \(error)")
        }
    }

    // MARK: - Setup

    private var hostHeader: String { "\(options.host):\(options.port)" }

    private func openMore() {
        while settingUp < options.batch && nextToOpen < connections.count {
            let connection = connections[nextToOpen]
            nextToOpen += 1
            settingUp += 1
            let key = WebSocketHandshake.makeKey(using: &random)
            connection.key = key
            let request =
                "GET /apps/\(options.appId)/api/1/sync HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
            connect(connection, request: Array(request.utf8))
        }
    }

    /// Opens a socket for `connection` and queues `request` for when it connects.
    private func connect(_ connection: LiveQueryConnection, request: [UInt8]) {
        connection.state = .upgradeConnecting
        connection.inbox.removeAll()
        connection.outbox = request
        do {
            connection.fd = try Posix.socketTCP(family: address.family == .ipv4 ? AF_INET : AF_INET6)
            try? Posix.setOption(connection.fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
            _ = try Posix.connect(connection.fd, to: address)
            try selector.register(fd: connection.fd, interest: [.readable, .writable], token: UInt64(connection.token))
            connection.watchesWritable = true
        } catch {
            drop(connection, kind: "connect: \(error)", detail: "connect: \(error)")
        }
    }

    private func handle(_ connection: LiveQueryConnection, events: SelectorEventSet) {
        guard connection.fd >= 0 else { return }
        switch connection.state {
        case .upgradeConnecting:
            guard events.contains(.writable) || events.contains(.hangup) else { return }
            let error = Posix.socketError(connection.fd)
            guard error == 0 else {
                let reason = String(cString: strerror(error))
                drop(connection, kind: "connect: \(reason)", detail: "connect: \(reason)")
                return
            }
            connection.state = .upgradeReading
            flush(connection)
        case .idle, .failed:
            return
        default:
            if events.contains(.writable) && !connection.outbox.isEmpty { flush(connection) }
            if events.contains(.readable) && connection.fd >= 0 { readAvailable(connection) }
        }
    }

    /// Reads what the socket has, up to a few buffers, and hands it on by state.
    private func readAvailable(_ connection: LiveQueryConnection) {
        for _ in 0..<4 {
            let result: IOResult<Int>
            do {
                result = try Posix.read(connection.fd, into: readBuffer)
            } catch {
                drop(
                    connection, kind: "read: \(error.code.rawValue == ECONNRESET ? "reset" : "\(error)")",
                    detail: "\(error)")
                return
            }
            switch result {
            case .wouldBlock:
                return
            case .processed(0):
                drop(connection, kind: "closed by the server (\(connection.state))", detail: "EOF")
                return
            case .processed(let count):
                let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[..<count])
                let now = monotonicNanoseconds()
                if connection.state == .upgradeReading {
                    connection.inbox += bytes
                    finishUpgrade(connection, now: now)
                } else {
                    receiveFrames(connection, bytes, now: now)
                }
                if connection.fd < 0 || count < readBuffer.count { return }
            }
        }
    }

    /// Checks the 101 response, then sends `Connect` and the subscription; frames may follow in the same read.
    private func finishUpgrade(_ connection: LiveQueryConnection, now: UInt64) {
        let head: HTTPResponseScanner.Head?
        do {
            head = try HTTPResponseScanner.scan(connection.inbox)
        } catch {
            drop(connection, kind: "upgrade: malformed response", detail: "\(error)")
            return
        }
        guard let head else { return }
        do {
            try WebSocketHandshake.checkResponse(head.head, key: connection.key)
        } catch {
            drop(
                connection, kind: "upgrade: \(error)",
                detail: String(decoding: connection.inbox.prefix(300), as: UTF8.self))
            return
        }
        connection.key = ""
        connection.state = .subscribing
        let rest = Array(connection.inbox[head.length...])
        connection.inbox = []
        connection.subscribeSentAt = monotonicNanoseconds()
        send(connection, payload: SyncClientFrames.connect(using: &random))
        send(
            connection,
            payload: SyncClientFrames.subscribe(table: options.table, group: connection.group, limit: options.limit))
        if !rest.isEmpty, connection.fd >= 0 {
            rest.withUnsafeBytes { receiveFrames(connection, $0, now: now) }
        }
    }

    // MARK: - Frames

    /// Handles the complete frames in `bytes` (after any partial frame kept from before) and keeps the rest.
    private func receiveFrames(_ connection: LiveQueryConnection, _ bytes: UnsafeRawBufferPointer, now: UInt64) {
        if connection.inbox.isEmpty {
            let used = handleFrames(connection, bytes, now: now)
            if connection.fd >= 0 && used < bytes.count {
                connection.inbox = Array(bytes[used...])
            }
            return
        }
        // Moved out first: handling may fail the connection, which clears its inbox.
        var pending = connection.inbox
        connection.inbox = []
        pending += bytes
        let used = pending.withUnsafeBytes { handleFrames(connection, $0, now: now) }
        if connection.fd >= 0 && used < pending.count {
            pending.removeFirst(used)
            connection.inbox = pending
        }
    }

    /// Handles complete frames from the start of `bytes`; returns how many bytes they took.
    private func handleFrames(_ connection: LiveQueryConnection, _ bytes: UnsafeRawBufferPointer, now: UInt64) -> Int {
        var offset = 0
        while connection.fd >= 0 {
            let frame: WebSocketFrameScanner.Frame
            do {
                guard let next = try WebSocketFrameScanner.frame(in: bytes, at: offset) else { return offset }
                frame = next
            } catch {
                drop(connection, kind: "protocol: \(error.reason)", detail: "\(error)")
                return offset
            }
            offset = frame.payload.upperBound
            let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
            switch frame.opcode {
            case 0x1 where frame.fin:
                handleMessage(connection, payload, now: now)
            case 0x9:
                pingsAnswered += 1
                send(connection, opcode: .pong, payload: Array(payload))
            case 0xA:
                break
            case 0x8:
                let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                drop(
                    connection, kind: "closed by the server (WebSocket \(code))",
                    detail: "close frame \(code) \(String(decoding: payload.dropFirst(2), as: UTF8.self))")
            default:
                drop(
                    connection, kind: "protocol: unexpected frame (opcode \(frame.opcode), fin \(frame.fin))",
                    detail: "opcode \(frame.opcode)")
            }
        }
        return offset
    }

    private func handleMessage(_ connection: LiveQueryConnection, _ payload: UnsafeRawBufferPointer, now: UInt64) {
        switch SyncPacket.classify(payload) {
        case .transition(let updated, let failed):
            if failed {
                record(kind: "QueryFailed", detail: String(decoding: payload.prefix(300), as: UTF8.self))
            }
            guard updated else { return }
            if connection.state == .subscribing {
                connection.state = .subscribed
                settingUp -= 1
                subscribed += 1
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
            record(kind: "TransitionChunk (not reassembled)", detail: String(decoding: payload.prefix(200), as: UTF8.self))
        case .mutationResponse:
            record(kind: "unexpected MutationResponse", detail: String(decoding: payload.prefix(200), as: UTF8.self))
        case .unexpected(let text):
            record(kind: "unexpected message", detail: text)
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

    // MARK: - Sending

    /// Queues one masked frame and sends what the socket takes.
    private func send(_ connection: LiveQueryConnection, opcode: WebSocketOpcode = .text, payload: [UInt8]) {
        let frame = WebSocketFrame(opcode: opcode, maskingKey: .random(using: &random), payload: payload)
        frame.encode(into: &connection.outbox)
        flush(connection)
    }

    private func flush(_ connection: LiveQueryConnection) {
        while !connection.outbox.isEmpty {
            let result: IOResult<Int>
            do {
                result = try connection.outbox.withUnsafeBytes { bytes throws(IOError) in
                    try Posix.send(connection.fd, bytes)
                }
            } catch {
                drop(connection, kind: "send: \(error)", detail: "\(error)")
                return
            }
            switch result {
            case .processed(let count):
                connection.outbox.removeFirst(count)
            case .wouldBlock:
                watch(connection, writable: true)
                return
            }
        }
        watch(connection, writable: false)
    }

    private func watch(_ connection: LiveQueryConnection, writable: Bool) {
        guard connection.watchesWritable != writable, connection.fd >= 0 else { return }
        do {
            try selector.reregister(
                fd: connection.fd, interest: writable ? [.readable, .writable] : .readable,
                token: UInt64(connection.token))
            connection.watchesWritable = writable
        } catch {
            drop(connection, kind: "epoll_ctl: \(error)", detail: "\(error)")
        }
    }

    // MARK: - Errors

    private func close(_ connection: LiveQueryConnection) {
        guard connection.fd >= 0 else { return }
        try? selector.deregister(fd: connection.fd)
        Posix.close(connection.fd)
        connection.fd = -1
        connection.watchesWritable = false
    }

    /// Closes the connection after an error, counting it once under `kind`.
    private func drop(_ connection: LiveQueryConnection, kind: String, detail: String) {
        guard connection.state != .failed else { return }
        record(kind: kind, detail: detail)
        if connection.state.isSettingUp { settingUp -= 1 }
        if connection.state == .subscribed {
            subscribed -= 1
            if measuring { droppedWhileMeasuring += 1 }
        }
        failed += 1
        connection.state = .failed
        connection.inbox = []
        connection.outbox = []
        close(connection)
    }

    /// Counts an error under `kind`; the first of each kind (up to ten kinds) is kept in full.
    private func record(kind: String, detail: String) {
        let seen = errors[kind, default: 0]
        errors[kind] = seen + 1
        if seen == 0 && errorSamples.count < 10 { errorSamples.append("\(kind): \(detail)") }
    }

    private func log(_ message: String) {
        let line = "live-queries: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    private func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }

    private func seconds(since start: UInt64) -> Double { Double(monotonicNanoseconds() - start) / 1e9 }
}
