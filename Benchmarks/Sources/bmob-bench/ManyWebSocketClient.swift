import BmobIO
import BmobWire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The many-socket WebSocket client under the fan-out and live-query benchmarks: one thread, the epoll selector
/// of BmobIO, one shared read buffer whose frames are handled where they lie. It opens sockets and upgrades
/// them, reads, splits frames (answering WebSocket pings, handing text messages to its
/// ``ManyWebSocketClientDelegate``), sends masked frames (watching for writability while the kernel pushes
/// back), closes, and keeps the setup progress and the error counts. What the messages mean is the delegate's.
final class ManyWebSocketClient {
    /// The server's address.
    let address: SocketAddress
    /// The `Host` header of every request.
    let hostHeader: String
    /// Setup progress of the subscribers.
    var progress = SubscriberSetupProgress()
    /// Errors by kind over the run.
    var errors = ErrorTally()
    /// WebSocket pings answered.
    private(set) var pingsAnswered = 0
    /// Masking keys and handshake keys.
    var random = FastRandom()
    /// Receives what the protocol decides; the benchmark that owns this client.
    unowned(unsafe) var delegate: (any ManyWebSocketClientDelegate)?

    private let selector: any Selector
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// What `log` lines start with: the subcommand's name.
    private let logPrefix: String

    /// Bytes read from the kernel at once; large enough that a busy connection drains in one read.
    private static let readBufferSize = 256 * 1024

    /// A client with no socket open yet; exits with a message when `host` is not a numeric address.
    ///
    /// - Parameters:
    ///   - host: the server's numeric address.
    ///   - port: the server's port.
    ///   - logPrefix: what `log` lines start with, the subcommand's name.
    init(host: String, port: UInt16, logPrefix: String) {
        guard let address = SocketAddress(host: host, port: port) else {
            fail("--host must be a numeric address")
        }
        self.address = address
        hostHeader = "\(host):\(port)"
        self.logPrefix = logPrefix
        do {
            selector = try SelectorKind.platformDefault.makeSelector()
        } catch {
            fail("cannot make a selector: \(error)")
        }
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    // MARK: - Running

    /// Handles events for `duration` nanoseconds.
    func serviceEvents(forNanoseconds duration: UInt64) {
        let end = monotonicNanoseconds() + duration
        while true {
            let now = monotonicNanoseconds()
            guard now < end else { return }
            serviceEvents(timeoutNanoseconds: min(end - now, 50_000_000))
        }
    }

    /// Waits up to `timeoutNanoseconds` for events and hands each to the delegate.
    func serviceEvents(timeoutNanoseconds: UInt64) {
        do {
            try selector.whenReady(timeoutNanoseconds: timeoutNanoseconds) { token, events in
                delegate?.handleEvents(token: Int(token), events: events)
            }
        } catch {
            fail("epoll_wait: \(error)")
        }
    }

    /// Sets up `count` connections, `batch` at a time, until each is subscribed or failed or `timeout` seconds
    /// passed, logging the progress every five seconds.
    ///
    /// - Parameters:
    ///   - count: connections to set up.
    ///   - batch: connections being set up at once.
    ///   - timeout: seconds the whole setup may take.
    ///   - open: starts the setup of the connection at the given index.
    /// - Returns: when the setup started (monotonic nanoseconds).
    func setUp(count: Int, batch: Int, timeout: Double, open: (Int) -> Void) -> UInt64 {
        let setupStart = monotonicNanoseconds()
        let setupDeadline = setupStart + nanoseconds(timeout)
        var lastReport = setupStart
        while progress.nextToOpen < count || progress.settingUp > 0 {
            let now = monotonicNanoseconds()
            if now >= setupDeadline { break }
            while progress.settingUp < batch && progress.nextToOpen < count {
                let index = progress.nextToOpen
                progress.nextToOpen += 1
                progress.settingUp += 1
                open(index)
            }
            serviceEvents(timeoutNanoseconds: 50_000_000)
            if now - lastReport >= 5_000_000_000 {
                lastReport = now
                log(
                    "setup: \(progress.subscribed) subscribed, \(progress.settingUp) in progress, "
                        + "\(progress.failed) failed")
            }
        }
        return setupStart
    }

    /// Logs the end of the setup: how many subscribed in `seconds`, how many failed.
    func logSetupFinished(seconds: Double) {
        let duration = String(format: "%.1f", seconds)
        log("setup: \(progress.subscribed) subscribed in \(duration) s, \(progress.failed) failed")
    }

    /// Handles events until `writer` finished its schedule, and returns its report.
    func awaitReport(of writer: FanoutWriter) -> FanoutWriterReport {
        var report: FanoutWriterReport?
        while report == nil {
            serviceEvents(timeoutNanoseconds: 20_000_000)
            report = writer.finishedReport
        }
        writer.join()
        guard let report else { fail("the writer stopped without a report") }
        return report
    }

    /// Handles events while `waiting` holds, until `deadline` (monotonic nanoseconds).
    func drain(until deadline: UInt64, while waiting: () -> Bool) {
        while waiting() && monotonicNanoseconds() < deadline {
            serviceEvents(timeoutNanoseconds: 20_000_000)
        }
    }

    /// Writes `prefix: message` to standard error.
    func log(_ message: String) {
        let line = "\(logPrefix): \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    // MARK: - Setup

    /// A WebSocket upgrade request for `target`, with a new key that `socket` keeps for checking the response.
    func upgradeRequest(_ socket: BenchmarkWebSocket, target: String) -> [UInt8] {
        let key = WebSocketHandshake.makeKey(using: &random)
        socket.key = key
        let request =
            "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        return Array(request.utf8)
    }

    /// Opens a socket for `socket` and queues `request` for when it connects; a failure drops the connection.
    func connect(_ socket: BenchmarkWebSocket, request: [UInt8]) {
        socket.inbox.removeAll()
        socket.outbox = request
        do {
            socket.fd = try Posix.socketTCP(family: address.family == .ipv4 ? AF_INET : AF_INET6)
            try? Posix.setOption(socket.fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
            _ = try Posix.connect(socket.fd, to: address)
            try selector.register(fd: socket.fd, interest: [.readable, .writable], token: UInt64(socket.token))
            socket.watchesWritable = true
        } catch {
            delegate?.drop(token: socket.token, kind: "connect: \(error)", detail: "connect: \(error)")
        }
    }

    /// Whether the connect of `socket` is over (`events` hold writable or hangup) and succeeded; a failed one is
    /// dropped.
    func connectSucceeded(_ socket: BenchmarkWebSocket, events: SelectorEventSet) -> Bool {
        guard events.contains(.writable) || events.contains(.hangup) else { return false }
        let error = Posix.socketError(socket.fd)
        guard error == 0 else {
            let reason = String(cString: strerror(error))
            delegate?.drop(token: socket.token, kind: "connect: \(reason)", detail: "connect: \(reason)")
            return false
        }
        return true
    }

    /// Sends what `socket` has queued when it can, and reads what it has when it can.
    func serviceOpen(_ socket: BenchmarkWebSocket, events: SelectorEventSet) {
        if events.contains(.writable) && !socket.outbox.isEmpty { flush(socket) }
        if events.contains(.readable) && socket.fd >= 0 { readAvailable(socket) }
    }

    /// Checks the 101 response in `socket`'s inbox.
    ///
    /// - Returns: the bytes that followed the response (frames may follow it in the same read), or nil while the
    ///   response is incomplete or after the connection was dropped for a bad one.
    func takeUpgradeResponse(_ socket: BenchmarkWebSocket) -> [UInt8]? {
        let head: HTTPResponseScanner.Head?
        do {
            head = try HTTPResponseScanner.scan(socket.inbox)
        } catch {
            delegate?.drop(token: socket.token, kind: "upgrade: malformed response", detail: "\(error)")
            return nil
        }
        guard let head else { return nil }
        do {
            try WebSocketHandshake.checkResponse(head.head, key: socket.key)
        } catch {
            delegate?.drop(
                token: socket.token, kind: "upgrade: \(error)",
                detail: String(decoding: socket.inbox.prefix(300), as: UTF8.self))
            return nil
        }
        socket.key = ""
        let rest = Array(socket.inbox[head.length...])
        socket.inbox = []
        return rest
    }

    // MARK: - Reading

    /// Reads what the socket has, up to a few buffers, and hands it to the delegate.
    private func readAvailable(_ socket: BenchmarkWebSocket) {
        for _ in 0..<4 {
            let result: IOResult<Int>
            do {
                result = try Posix.read(socket.fd, into: readBuffer)
            } catch {
                delegate?.drop(
                    token: socket.token, kind: "read: \(error.code.rawValue == ECONNRESET ? "reset" : "\(error)")",
                    detail: "\(error)")
                return
            }
            switch result {
            case .wouldBlock:
                return
            case .processed(0):
                delegate?.closedByServer(token: socket.token)
                return
            case .processed(let count):
                let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[..<count])
                let now = monotonicNanoseconds()
                delegate?.consume(token: socket.token, bytes: bytes, now: now)
                if socket.fd < 0 || count < readBuffer.count { return }
            }
        }
    }

    /// Handles the complete frames in `bytes` (after any partial frame kept from before) and keeps the rest.
    func receiveFrames(_ socket: BenchmarkWebSocket, _ bytes: UnsafeRawBufferPointer, now: UInt64) {
        if socket.inbox.isEmpty {
            let used = handleFrames(socket, bytes, now: now)
            if socket.fd >= 0 && used < bytes.count {
                socket.inbox = Array(bytes[used...])
            }
            return
        }
        // Moved out first: handling may fail the connection, which clears its inbox.
        var pending = socket.inbox
        socket.inbox = []
        pending += bytes
        let used = pending.withUnsafeBytes { handleFrames(socket, $0, now: now) }
        if socket.fd >= 0 && used < pending.count {
            pending.removeFirst(used)
            socket.inbox = pending
        }
    }

    /// Handles complete frames from the start of `bytes`; returns how many bytes they took.
    private func handleFrames(_ socket: BenchmarkWebSocket, _ bytes: UnsafeRawBufferPointer, now: UInt64) -> Int {
        var offset = 0
        while socket.fd >= 0 {
            let frame: WebSocketFrameScanner.Frame
            do {
                guard let next = try WebSocketFrameScanner.frame(in: bytes, at: offset) else { return offset }
                frame = next
            } catch {
                delegate?.drop(token: socket.token, kind: "protocol: \(error.reason)", detail: "\(error)")
                return offset
            }
            let frameBytes = frame.payload.upperBound - offset
            offset = frame.payload.upperBound
            let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
            switch frame.opcode {
            case 0x1 where frame.fin:
                delegate?.handleTextMessage(token: socket.token, payload: payload, frameBytes: frameBytes, now: now)
            case 0x9:
                pingsAnswered += 1
                send(socket, opcode: .pong, payload: Array(payload))
            case 0xA:
                break
            case 0x8:
                let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                delegate?.drop(
                    token: socket.token, kind: "closed by the server (WebSocket \(code))",
                    detail: "close frame \(code) \(String(decoding: payload.dropFirst(2), as: UTF8.self))")
            default:
                delegate?.drop(
                    token: socket.token,
                    kind: "protocol: unexpected frame (opcode \(frame.opcode), fin \(frame.fin))",
                    detail: "opcode \(frame.opcode)")
            }
        }
        return offset
    }

    // MARK: - Sending

    /// Queues one masked frame and sends what the socket takes.
    func send(_ socket: BenchmarkWebSocket, opcode: WebSocketOpcode = .text, payload: [UInt8]) {
        let frame = WebSocketFrame(opcode: opcode, maskingKey: .random(using: &random), payload: payload)
        frame.encode(into: &socket.outbox)
        flush(socket)
    }

    /// Sends what the socket takes of the outbox, watching for writability while some is left.
    func flush(_ socket: BenchmarkWebSocket) {
        while !socket.outbox.isEmpty {
            let result: IOResult<Int>
            do {
                result = try socket.outbox.withUnsafeBytes { bytes throws(IOError) in
                    try Posix.send(socket.fd, bytes)
                }
            } catch {
                delegate?.drop(token: socket.token, kind: "send: \(error)", detail: "\(error)")
                return
            }
            switch result {
            case .processed(let count):
                socket.outbox.removeFirst(count)
            case .wouldBlock:
                watch(socket, writable: true)
                return
            }
        }
        watch(socket, writable: false)
    }

    private func watch(_ socket: BenchmarkWebSocket, writable: Bool) {
        guard socket.watchesWritable != writable, socket.fd >= 0 else { return }
        do {
            try selector.reregister(
                fd: socket.fd, interest: writable ? [.readable, .writable] : .readable, token: UInt64(socket.token))
            socket.watchesWritable = writable
        } catch {
            delegate?.drop(token: socket.token, kind: "epoll_ctl: \(error)", detail: "\(error)")
        }
    }

    // MARK: - Closing

    /// Closes the socket, if open.
    func close(_ socket: BenchmarkWebSocket) {
        guard socket.fd >= 0 else { return }
        try? selector.deregister(fd: socket.fd)
        Posix.close(socket.fd)
        socket.fd = -1
        socket.watchesWritable = false
    }

    /// Forgets what `socket` had in and out, and closes it: the end of a failed connection.
    func discard(_ socket: BenchmarkWebSocket) {
        socket.inbox = []
        socket.outbox = []
        close(socket)
    }
}
