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
/// One thread receives for every connection, through the epoll selector of BmobIO, reading into one shared
/// buffer and handling each frame where it lies; heartbeats (`2::`, `pusher:ping`) and WebSocket pings are
/// answered.
final class FanoutBenchmark {
    private enum Phase {
        case setup, idle, probe, measure
    }

    private let options: FanoutOptions
    private let dialect: any FanoutDialect
    private let address: SocketAddress
    private let selector: any Selector
    private var connections: [FanoutConnection]
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var random = FastRandom()
    private var phase = Phase.setup

    // Setup
    private var nextToOpen = 0
    private var settingUp = 0
    private var subscribed = 0
    private var failed = 0
    private var droppedWhileMeasuring = 0

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
    private var pingsAnswered = 0
    private var errors: [String: Int] = [:]
    private var errorSamples: [String] = []

    /// Bytes read from the kernel at once; large enough that a busy connection drains in one read.
    private static let readBufferSize = 256 * 1024
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(result) else { fail("cannot encode the result") }
        print(String(decoding: json, as: UTF8.self))
        exit(result.connectionsSubscribed > 0 ? 0 : 1)
    }

    private init(options: FanoutOptions) {
        self.options = options
        dialect = options.dialect
        guard let address = SocketAddress(host: options.host, port: options.port) else {
            fail("--host must be a numeric address")
        }
        self.address = address
        do {
            selector = try SelectorKind.platformDefault.makeSelector()
        } catch {
            fail("cannot make a selector: \(error)")
        }
        connections = (0..<options.connections).map { FanoutConnection(token: $0) }
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    // MARK: - Phases

    private func run() -> FanoutResult {
        var result = FanoutResult()
        result.connectionsRequested = options.connections
        result.rate = options.rate
        result.seconds = options.seconds
        let writeAddress = SocketAddress(host: options.host, port: options.writePort ?? options.port)!
        let writer = FanoutWriter(address: writeAddress, host: options.host, dialect: dialect)

        // 1. Warm-up and baseline.
        if let failure = writer.post(seq: -1, sentAt: monotonicNanoseconds()) {
            fail("the warm-up publish failed: \(failure)")
        }
        usleep(200_000)
        let baseline = options.serverPID.flatMap(ProcessSample.current(pid:))
        result.serverRSSBaselineKiB = baseline?.residentKiB

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
            drop(connection, kind: "setup timeout", detail: "not subscribed within \(options.setupTimeout) s")
        }
        result.setupSeconds = seconds(since: setupStart)
        log("setup: \(subscribed) subscribed in \(String(format: "%.1f", result.setupSeconds)) s, \(failed) failed")

        // 3. Settle, then idle memory.
        phase = .idle
        serviceEvents(forNanoseconds: nanoseconds(options.settle))
        let idle = options.serverPID.flatMap(ProcessSample.current(pid:))
        result.serverRSSIdleKiB = idle?.residentKiB
        if let baseline, let idle, subscribed > 0 {
            result.bytesPerIdleConnection = Double(idle.residentKiB - baseline.residentKiB) * 1024 / Double(subscribed)
        }

        // 4. Probes: one create at a time with nothing else going on, each awaited on every connection.
        phase = .probe
        var probeTimes: [Double] = []
        var fewestReceived = subscribed
        for _ in 0..<Self.probes {
            for connection in connections { connection.gotProbe = false }
            probeReceived = 0
            let probeSent = monotonicNanoseconds()
            if let failure = writer.post(seq: 0, sentAt: probeSent) {
                record(kind: "probe publish failed", detail: failure)
                fewestReceived = 0
                break
            }
            let deadline = probeSent + 30_000_000_000
            while probeReceived < subscribed && monotonicNanoseconds() < deadline {
                serviceEvents(timeoutNanoseconds: 50_000_000)
            }
            fewestReceived = min(fewestReceived, probeReceived)
            if probeReceived > 0 { probeTimes.append(Double(lastProbeDelivery - probeSent) / 1e6) }
            let pauseEnd = monotonicNanoseconds() + 200_000_000
            while monotonicNanoseconds() < pauseEnd { serviceEvents(timeoutNanoseconds: 20_000_000) }
        }
        if !probeTimes.isEmpty {
            result.probeFanoutMilliseconds = probeTimes.sorted()[probeTimes.count / 2]
            result.probeFanoutRoundsMilliseconds = probeTimes
        }
        result.probeFrameBytes = probeFrameBytes
        result.probeReceived = fewestReceived
        log("probes: at least \(fewestReceived) of \(subscribed) received each")

        // 5. Measure.
        phase = .measure
        result.connectionsSubscribed = subscribed
        let measured = connections.filter { $0.state == .subscribed }
        let serverBefore = options.serverPID.flatMap(ProcessSample.current(pid:))
        let clientBefore = ProcessSample.ownCPUSeconds()
        let start = monotonicNanoseconds() + 100_000_000
        writer.start(rate: options.rate, seconds: options.seconds, at: start)
        var report: FanoutWriterReport?
        while report == nil {
            serviceEvents(timeoutNanoseconds: 20_000_000)
            report = writer.finishedReport
        }
        writer.join()
        guard let report else { fail("the writer stopped without a report") }
        let expected = report.succeeded * options.connections
        let reachable = report.succeeded * subscribed
        let drainDeadline = report.end + nanoseconds(options.drain)
        while received < reachable && monotonicNanoseconds() < drainDeadline {
            serviceEvents(timeoutNanoseconds: 20_000_000)
        }
        let serverAfter = options.serverPID.flatMap(ProcessSample.current(pid:))
        let clientAfter = ProcessSample.ownCPUSeconds()

        result.serverRSSAfterKiB = serverAfter?.residentKiB
        result.writesAttempted = report.attempted
        result.writesSucceeded = report.succeeded
        result.writesFailed = report.failed
        result.firstWriteFailure = report.firstFailure
        result.writeLagP99Us = Double(report.lag.percentile(0.99)) / 1000
        result.writeLagMaxUs = Double(report.lag.maximum) / 1000
        result.writeResponseP50Us = Double(report.responseTime.percentile(0.5)) / 1000
        result.writeResponseP99Us = Double(report.responseTime.percentile(0.99)) / 1000
        result.expected = expected
        result.received = received
        result.missed = expected - received
        result.outOfOrder = outOfOrder
        result.receivedPerConnectionMin = measured.map(\.received).min() ?? 0
        result.receivedPerConnectionMax = measured.map(\.received).max() ?? 0
        let window = max(options.seconds, lastDelivery > report.start ? Double(lastDelivery - report.start) / 1e9 : 0)
        result.windowSeconds = window
        result.deliveriesPerSecond = Double(received) / window
        result.drainSeconds = lastDelivery > report.end ? Double(lastDelivery - report.end) / 1e9 : 0
        result.latencyP50Us = Double(histogram.percentile(0.5)) / 1000
        result.latencyP90Us = Double(histogram.percentile(0.9)) / 1000
        result.latencyP99Us = Double(histogram.percentile(0.99)) / 1000
        result.latencyP999Us = Double(histogram.percentile(0.999)) / 1000
        result.latencyMaxUs = Double(histogram.maximum) / 1000
        if let serverBefore, let serverAfter {
            result.serverCPUSeconds = serverAfter.cpuSeconds - serverBefore.cpuSeconds
            if received > 0 { result.serverCPUUsPerDelivery = result.serverCPUSeconds! * 1e6 / Double(received) }
        }
        result.clientCPUSeconds = clientAfter - clientBefore
        result.connectionsFailed = failed
        result.connectionsDroppedWhileMeasuring = droppedWhileMeasuring
        result.heartbeatsAnswered = heartbeatsAnswered
        result.pingsAnswered = pingsAnswered
        result.errors = errors
        result.errorSamples = errorSamples
        log("measured: \(received) of \(expected) deliveries, p99 \(result.latencyP99Us / 1000) ms")
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

    private func openMore() {
        while settingUp < options.batch && nextToOpen < connections.count {
            let connection = connections[nextToOpen]
            nextToOpen += 1
            settingUp += 1
            if let request = dialect.handshakeRequest(hostHeader: hostHeader) {
                connect(connection, state: .handshakeConnecting, request: Array(request.utf8))
            } else {
                upgrade(connection, session: nil)
            }
        }
    }

    /// Opens the WebSocket of `connection`, after its handshake when the protocol has one.
    private func upgrade(_ connection: FanoutConnection, session: String?) {
        let key = WebSocketHandshake.makeKey(using: &random)
        connection.key = key
        let request =
            "GET \(dialect.upgradeTarget(session: session)) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        connect(connection, state: .upgradeConnecting, request: Array(request.utf8))
    }

    private var hostHeader: String { "\(options.host):\(options.port)" }

    /// Opens a socket for `connection` and queues `request` for when it connects.
    private func connect(_ connection: FanoutConnection, state: FanoutConnection.State, request: [UInt8]) {
        connection.state = state
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

    private func handle(_ connection: FanoutConnection, events: SelectorEventSet) {
        guard connection.fd >= 0 else { return }
        switch connection.state {
        case .handshakeConnecting, .upgradeConnecting:
            guard events.contains(.writable) || events.contains(.hangup) else { return }
            let error = Posix.socketError(connection.fd)
            guard error == 0 else {
                let reason = String(cString: strerror(error))
                drop(connection, kind: "connect: \(reason)", detail: "connect: \(reason)")
                return
            }
            connection.state = connection.state == .handshakeConnecting ? .handshakeReading : .upgradeReading
            flush(connection)
        case .idle, .failed:
            return
        default:
            if events.contains(.writable) && !connection.outbox.isEmpty { flush(connection) }
            if events.contains(.readable) && connection.fd >= 0 { readAvailable(connection) }
        }
    }

    /// Reads what the socket has, up to a few buffers, and hands it on by state.
    private func readAvailable(_ connection: FanoutConnection) {
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
                if connection.state == .handshakeReading {
                    finishHandshake(connection, closed: true)
                } else {
                    drop(connection, kind: "closed by the server (\(stateName(connection.state)))", detail: "EOF")
                }
                return
            case .processed(let count):
                let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[..<count])
                let now = monotonicNanoseconds()
                consume(connection, bytes, now: now)
                if connection.fd < 0 || count < readBuffer.count { return }
            }
        }
    }

    private func consume(_ connection: FanoutConnection, _ bytes: UnsafeRawBufferPointer, now: UInt64) {
        switch connection.state {
        case .handshakeReading:
            connection.inbox += bytes
            finishHandshake(connection, closed: false)
        case .upgradeReading:
            connection.inbox += bytes
            finishUpgrade(connection, now: now)
        case .awaitingReady, .subscribing, .subscribed:
            receiveFrames(connection, bytes, now: now)
        default:
            return
        }
    }

    /// Takes the session id from a complete handshake response and starts the upgrade.
    private func finishHandshake(_ connection: FanoutConnection, closed: Bool) {
        let head: HTTPResponseScanner.Head?
        do {
            head = try HTTPResponseScanner.scan(connection.inbox)
        } catch {
            drop(connection, kind: "handshake: malformed response", detail: "\(error)")
            return
        }
        guard let head, let length = head.contentLength, connection.inbox.count >= head.length + length else {
            if closed { drop(connection, kind: "handshake: closed before the response", detail: "EOF in handshake") }
            return
        }
        guard head.head.status.code == 200 else {
            drop(
                connection, kind: "handshake: HTTP \(head.head.status.code)",
                detail: String(decoding: connection.inbox, as: UTF8.self))
            return
        }
        let body = String(decoding: connection.inbox[head.length..<(head.length + length)], as: UTF8.self)
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 4, !fields[0].isEmpty, fields[3].split(separator: ",").contains("websocket") else {
            drop(connection, kind: "handshake: unexpected body", detail: body)
            return
        }
        close(connection)
        upgrade(connection, session: String(fields[0]))
    }

    /// Checks the 101 response; frames may follow it in the same read.
    private func finishUpgrade(_ connection: FanoutConnection, now: UInt64) {
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
        connection.state = .awaitingReady
        let rest = Array(connection.inbox[head.length...])
        connection.inbox = []
        if !rest.isEmpty {
            rest.withUnsafeBytes { receiveFrames(connection, $0, now: now) }
        }
    }

    // MARK: - Frames

    /// Handles the complete frames in `bytes` (after any partial frame kept from before) and keeps the rest.
    private func receiveFrames(_ connection: FanoutConnection, _ bytes: UnsafeRawBufferPointer, now: UInt64) {
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
    private func handleFrames(_ connection: FanoutConnection, _ bytes: UnsafeRawBufferPointer, now: UInt64) -> Int {
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
            currentFrameBytes = frame.payload.upperBound - offset
            offset = frame.payload.upperBound
            let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
            switch frame.opcode {
            case 0x1 where frame.fin:
                handlePacket(connection, payload, now: now)
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

    private func handlePacket(_ connection: FanoutConnection, _ payload: UnsafeRawBufferPointer, now: UInt64) {
        switch dialect.classify(payload) {
        case .publication(let seq, let sentAt):
            delivered(connection, seq: seq, sentAt: sentAt, now: now)
        case .publicationWithoutFields:
            record(
                kind: "event without seq or sentAt", detail: String(decoding: payload.prefix(300), as: UTF8.self))
        case .heartbeat:
            heartbeatsAnswered += 1
            send(connection, opcode: .text, payload: dialect.heartbeatReply)
        case .connect, .ignored:
            break
        case .ready:
            guard connection.state == .awaitingReady else { return }
            connection.state = .subscribing
            send(connection, opcode: .text, payload: dialect.subscribeFrame)
        case .ack(let id):
            guard connection.state == .subscribing, id == 1 else {
                record(kind: "unexpected ack", detail: "ack \(id) in \(stateName(connection.state))")
                return
            }
            connection.state = .subscribed
            settingUp -= 1
            subscribed += 1
        case .error(let reason):
            record(kind: "error packet", detail: reason)
        case .disconnect:
            drop(connection, kind: "socket.io disconnect packet", detail: "0::")
        case .other:
            record(kind: "unexpected packet", detail: String(decoding: payload.prefix(200), as: UTF8.self))
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
            record(kind: "delivery outside the measurement", detail: "seq \(seq)")
            return
        }
        received += 1
        connection.received += 1
        if seq <= connection.lastSeq { outOfOrder += 1 } else { connection.lastSeq = seq }
        histogram.record(now > sentAt ? now - sentAt : 0)
        lastDelivery = now
    }

    // MARK: - Sending

    /// Queues one masked frame and sends what the socket takes.
    private func send(_ connection: FanoutConnection, opcode: WebSocketOpcode, payload: [UInt8]) {
        let frame = WebSocketFrame(opcode: opcode, maskingKey: .random(using: &random), payload: payload)
        frame.encode(into: &connection.outbox)
        flush(connection)
    }

    private func flush(_ connection: FanoutConnection) {
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

    private func watch(_ connection: FanoutConnection, writable: Bool) {
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

    private func close(_ connection: FanoutConnection) {
        guard connection.fd >= 0 else { return }
        try? selector.deregister(fd: connection.fd)
        Posix.close(connection.fd)
        connection.fd = -1
        connection.watchesWritable = false
    }

    /// Closes the connection after an error, counting it once under `kind`.
    private func drop(_ connection: FanoutConnection, kind: String, detail: String) {
        guard connection.state != .failed else { return }
        record(kind: kind, detail: detail)
        if connection.state.isSettingUp { settingUp -= 1 }
        if connection.state == .subscribed {
            subscribed -= 1
            if phase == .measure { droppedWhileMeasuring += 1 }
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

    private func stateName(_ state: FanoutConnection.State) -> String {
        "\(state)"
    }

    private func log(_ message: String) {
        let line = "fanout: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    private func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }

    private func seconds(since start: UInt64) -> Double { Double(monotonicNanoseconds() - start) / 1e9 }
}
