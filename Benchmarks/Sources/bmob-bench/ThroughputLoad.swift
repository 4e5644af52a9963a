import BmobIO
import BmobWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Requests back to back for a fixed time with a fixed number in flight, counting the answers: the
/// mutations-per-second half of `bmob-bench live-queries` and its REST reference, with the same object
/// (`{"group":g,"seq":n,"sentAt":0}`) in both.
///
/// - `.restCreates`: `POST /1/classes/<table>` on `sockets` keep-alive connections, `inFlightPerSocket` each
///   (1: HTTP/1.1 without pipelining, as clients send).
/// - `.mutations`: `<table>:add` on `sockets` sync WebSockets, each with `inFlightPerSocket` mutations
///   pipelined; the door runs one socket's mutations one at a time, in order.
///
/// One thread drives every connection with `poll`.
final class ThroughputLoad {
    /// What is sent.
    enum Kind: String {
        case restCreates = "rest_creates"
        case mutations
    }

    private let kind: Kind
    private let sockets: Int
    private let inFlightPerSocket: Int
    private let options: LiveQueryOptions
    private let address: SocketAddress
    private var random = FastRandom()
    private var connections: [ThroughputConnection] = []
    private var nextSeq = 1_000_000
    private var responseTimes = LatencyHistogram()
    private var completed = 0
    private var failed = 0
    private var firstFailure: String?
    private var end: UInt64 = .max

    /// How long connecting or upgrading one connection may take, in milliseconds.
    private static let setupTimeoutMilliseconds: Int32 = 10_000

    /// - Parameters:
    ///   - kind: REST creates or mutations.
    ///   - sockets: connections to open.
    ///   - inFlightPerSocket: requests kept in flight on each.
    ///   - options: the server, app and table.
    ///   - address: the server's address.
    init(kind: Kind, sockets: Int, inFlightPerSocket: Int, options: LiveQueryOptions, address: SocketAddress) {
        self.kind = kind
        self.sockets = sockets
        self.inFlightPerSocket = inFlightPerSocket
        self.options = options
        self.address = address
    }

    /// Opens the connections, keeps them busy for `seconds`, closes them.
    ///
    /// - Parameter seconds: how long to count answers.
    /// - Returns: what was measured.
    func run(seconds: Double) -> ThroughputOutcome {
        var outcome = ThroughputOutcome()
        outcome.kind = kind.rawValue
        outcome.name = "\(kind.rawValue), \(sockets) × \(inFlightPerSocket) in flight"
        outcome.sockets = sockets
        outcome.inFlightPerSocket = inFlightPerSocket
        outcome.seconds = seconds
        for _ in 0..<sockets {
            if let connection = open() { connections.append(connection) }
        }
        defer {
            for connection in connections where connection.fd >= 0 { Posix.close(connection.fd) }
            connections = []
        }
        guard !connections.isEmpty else {
            outcome.firstFailure = firstFailure ?? "no connection opened"
            return outcome
        }
        let serverBefore = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        let start = monotonicNanoseconds()
        end = start + UInt64(seconds * 1e9)
        var descriptors = [pollfd](repeating: pollfd(), count: connections.count)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while monotonicNanoseconds() < end {
            for (index, connection) in connections.enumerated() {
                if connection.fd >= 0 { fill(connection) }
                descriptors[index] = pollfd(
                    fd: connection.fd,
                    events: Int16(POLLIN) | (connection.outbox.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)
            }
            guard connections.contains(where: { $0.fd >= 0 }) else { break }
            let ready = poll(&descriptors, nfds_t(descriptors.count), 10)
            guard ready > 0 else { continue }
            for (index, connection) in connections.enumerated() where connection.fd >= 0 {
                let events = descriptors[index].revents
                if events & Int16(POLLOUT) != 0 { flush(connection) }
                if events & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                    receive(connection, buffer: &buffer)
                }
            }
        }
        let serverAfter = options.load.serverPID.flatMap(ProcessSample.current(pid:))
        outcome.completed = completed
        outcome.failed = failed
        outcome.perSecond = Double(completed) / seconds
        outcome.responseP50Us = Double(responseTimes.percentile(0.5)) / 1000
        outcome.responseP99Us = Double(responseTimes.percentile(0.99)) / 1000
        if let serverBefore, let serverAfter {
            outcome.serverCPUSeconds = serverAfter.cpuSeconds - serverBefore.cpuSeconds
            if completed > 0 { outcome.serverCPUUsPerRequest = outcome.serverCPUSeconds! * 1e6 / Double(completed) }
        }
        outcome.firstFailure = firstFailure
        return outcome
    }

    // MARK: - Requests

    /// The object both kinds create.
    private func nextObject() -> String {
        nextSeq += 1
        return #"{"group":\#(LiveQueryGroups.group(ofWrite: nextSeq, groups: options.queries)),"seq":\#(nextSeq),"sentAt":0}"#
    }

    /// Queues requests until the connection has its number in flight.
    private func fill(_ connection: ThroughputConnection) {
        guard connection.sentTimes.count < inFlightPerSocket else { return }
        while connection.sentTimes.count < inFlightPerSocket {
            let object = nextObject()
            switch kind {
            case .restCreates:
                let request =
                    "POST /1/classes/\(options.table) HTTP/1.1\r\nHost: \(options.host):\(options.port)\r\n"
                    + "X-Bmob-Application-Id: \(options.appId)\r\nX-Bmob-REST-API-Key: \(options.restKey)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(object.utf8.count)\r\n\r\n\(object)"
                connection.outbox += Array(request.utf8)
            case .mutations:
                let payload = SyncClientFrames.add(
                    requestId: connection.nextRequestId, table: options.table, object: object)
                connection.nextRequestId += 1
                WebSocketFrame(opcode: .text, maskingKey: .random(using: &random), payload: payload)
                    .encode(into: &connection.outbox)
            }
            connection.sentTimes.append(monotonicNanoseconds())
        }
        flush(connection)
    }

    private func flush(_ connection: ThroughputConnection) {
        while !connection.outbox.isEmpty {
            do {
                let result = try connection.outbox.withUnsafeBytes { bytes throws(IOError) in
                    try Posix.send(connection.fd, bytes)
                }
                guard case .processed(let count) = result else { return }
                connection.outbox.removeFirst(count)
            } catch {
                lose(connection, "send: \(error)")
                return
            }
        }
    }

    // MARK: - Answers

    private func receive(_ connection: ThroughputConnection, buffer: inout [UInt8]) {
        let result: IOResult<Int>
        do {
            result = try buffer.withUnsafeMutableBytes { bytes throws(IOError) in try Posix.read(connection.fd, into: bytes) }
        } catch {
            lose(connection, "read: \(error)")
            return
        }
        switch result {
        case .wouldBlock:
            return
        case .processed(0):
            lose(connection, "closed by the server")
        case .processed(let count):
            connection.inbox += buffer[..<count]
            switch kind {
            case .restCreates: takeResponses(connection)
            case .mutations: takeFrames(connection)
            }
        }
    }

    private func takeResponses(_ connection: ThroughputConnection) {
        while true {
            let head: HTTPResponseScanner.Head?
            do {
                head = try HTTPResponseScanner.scan(connection.inbox)
            } catch {
                lose(connection, "\(error)")
                return
            }
            guard let head else { return }
            guard let length = head.contentLength else {
                lose(connection, "response without Content-Length")
                return
            }
            guard connection.inbox.count >= head.length + length else { return }
            let success = (200..<300).contains(head.head.status.code)
            let detail = success ? "" : String(decoding: connection.inbox[head.length..<(head.length + length)].prefix(200), as: UTF8.self)
            connection.inbox.removeFirst(head.length + length)
            answered(connection, success: success, failure: "HTTP \(head.head.status.code): \(detail)")
        }
    }

    private func takeFrames(_ connection: ThroughputConnection) {
        var used = 0
        // A copy to read from: losing the connection inside clears its inbox.
        let received = connection.inbox
        received.withUnsafeBytes { bytes in
            while true {
                let frame: WebSocketFrameScanner.Frame
                do {
                    guard let next = try WebSocketFrameScanner.frame(in: bytes, at: used) else { return }
                    frame = next
                } catch {
                    lose(connection, "\(error)")
                    return
                }
                used = frame.payload.upperBound
                let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
                switch frame.opcode {
                case 0x1:
                    if case .mutationResponse(let success) = SyncPacket.classify(payload) {
                        answered(
                            connection, success: success,
                            failure: "MutationResponse: \(String(decoding: payload.prefix(200), as: UTF8.self))")
                    }
                case 0x9:
                    WebSocketFrame(opcode: .pong, maskingKey: .random(using: &random), payload: Array(payload))
                        .encode(into: &connection.outbox)
                case 0x8:
                    lose(connection, "WebSocket closed by the server")
                    return
                default:
                    break
                }
            }
        }
        if connection.fd >= 0 { connection.inbox.removeFirst(used) }
    }

    /// Counts the oldest request in flight as answered, if it was answered within the measured time.
    private func answered(_ connection: ThroughputConnection, success: Bool, failure: String) {
        guard !connection.sentTimes.isEmpty else { return }
        let sent = connection.sentTimes.removeFirst()
        let now = monotonicNanoseconds()
        guard now <= end else { return }
        responseTimes.record(now - sent)
        if success {
            completed += 1
        } else {
            failed += 1
            if firstFailure == nil { firstFailure = failure }
        }
    }

    /// Closes a connection that broke; its requests in flight count as failed.
    private func lose(_ connection: ThroughputConnection, _ reason: String) {
        guard connection.fd >= 0 else { return }
        if monotonicNanoseconds() <= end { failed += connection.sentTimes.count }
        if firstFailure == nil { firstFailure = reason }
        Posix.close(connection.fd)
        connection.fd = -1
        connection.inbox = []
        connection.outbox = []
        connection.sentTimes = []
    }

    // MARK: - Setup

    /// A connected socket, upgraded and `Connect`ed for mutations; `nil` (with the reason kept) on failure.
    private func open() -> ThroughputConnection? {
        do {
            let fd = try Posix.socketTCP(family: address.family == .ipv4 ? AF_INET : AF_INET6)
            try? Posix.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
            let connection = ThroughputConnection(fd: fd)
            _ = try Posix.connect(fd, to: address)
            guard wait(fd, for: Int16(POLLOUT)), Posix.socketError(fd) == 0 else {
                return abandon(connection, "connect failed")
            }
            guard kind == .mutations else { return connection }
            let key = WebSocketHandshake.makeKey(using: &random)
            let request =
                "GET /apps/\(options.appId)/api/1/sync HTTP/1.1\r\nHost: \(options.host):\(options.port)\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
            connection.outbox = Array(request.utf8)
            while !connection.outbox.isEmpty {
                flush(connection)
                guard connection.fd >= 0 else { return nil }
                if !connection.outbox.isEmpty && !wait(fd, for: Int16(POLLOUT)) { return abandon(connection, "upgrade send timed out") }
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let head = try HTTPResponseScanner.scan(connection.inbox) {
                    try WebSocketHandshake.checkResponse(head.head, key: key)
                    connection.inbox.removeFirst(head.length)
                    break
                }
                guard wait(fd, for: Int16(POLLIN)) else { return abandon(connection, "upgrade response timed out") }
                let result = try chunk.withUnsafeMutableBytes { bytes throws(IOError) in try Posix.read(fd, into: bytes) }
                switch result {
                case .processed(0): return abandon(connection, "closed during the upgrade")
                case .processed(let count): connection.inbox += chunk[..<count]
                case .wouldBlock: continue
                }
            }
            WebSocketFrame(opcode: .text, maskingKey: .random(using: &random), payload: SyncClientFrames.connect(using: &random))
                .encode(into: &connection.outbox)
            flush(connection)
            return connection.fd >= 0 ? connection : nil
        } catch {
            if firstFailure == nil { firstFailure = "opening a connection: \(error)" }
            return nil
        }
    }

    private func abandon(_ connection: ThroughputConnection, _ reason: String) -> ThroughputConnection? {
        if firstFailure == nil { firstFailure = reason }
        Posix.close(connection.fd)
        connection.fd = -1
        return nil
    }

    /// Waits until `fd` is ready for `events`; `false` on timeout.
    private func wait(_ fd: Int32, for events: Int16) -> Bool {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let result = poll(&descriptor, 1, Self.setupTimeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }
}
