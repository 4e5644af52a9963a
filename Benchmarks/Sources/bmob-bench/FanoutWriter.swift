import BmobIO
import BmobWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends the requests that publish one event each (REST creates for socket.io, signed channel publishes for
/// channels, as the ``FanoutDialect`` builds them) over one keep-alive connection, each waiting for its response,
/// on a steady schedule on its own thread.
///
/// The event's `sentAt` is the request's scheduled time on the monotonic clock, which the receiving loop of the
/// same process reads back from each delivery. Integers below 2^53 survive any JSON number handling, and the
/// monotonic clock stays below that for over 100 days of uptime.
///
/// Threading: the main thread uses ``post(seq:sentAt:)`` before the measurement, then hands the writer to
/// ``start(rate:seconds:at:)``'s thread and touches nothing but ``finishedReport`` until ``join()``.
final class FanoutWriter: @unchecked Sendable {
    // Invariant: `fd` and `received` are used by one thread at a time (see the type's threading note);
    // `report` only under `lock`.
    private let address: SocketAddress
    private let hostHeader: String
    private let dialect: any FanoutDialect
    private var fd: Int32 = -1
    private var received: [UInt8] = []
    private let lock = Lock()
    private var report: FanoutWriterReport?
    private var thread: BmobIO.Thread?

    /// How long one request may take before it counts as failed.
    private static let timeoutMilliseconds: Int32 = 10_000

    /// A writer for one server; it connects on first use.
    ///
    /// - Parameters:
    ///   - address: where the publishing requests go.
    ///   - host: the host name for the `Host` header.
    ///   - dialect: what builds each request.
    init(address: SocketAddress, host: String, dialect: any FanoutDialect) {
        self.address = address
        hostHeader = "\(host):\(address.port)"
        self.dialect = dialect
    }

    deinit {
        disconnect()
    }

    /// Publishes one event and waits for the answer.
    ///
    /// - Parameters:
    ///   - seq: the event's `seq` field.
    ///   - sentAt: the event's `sentAt` field, monotonic nanoseconds.
    /// - Returns: `nil` on a 2xx answer, else what went wrong.
    func post(seq: Int, sentAt: UInt64) -> String? {
        let request = dialect.publishRequest(seq: seq, sentAt: sentAt, hostHeader: hostHeader)
        // A keep-alive connection the server closed while idle fails on first use; one fresh try is fair.
        for attempt in 0..<2 {
            let reused = fd >= 0
            switch exchange(Array(request.utf8)) {
            case .success(let status) where (200..<300).contains(status): return nil
            case .success(let status): return "HTTP \(status) for event \(seq)"
            case .failure(let reason):
                disconnect()
                if !reused || attempt == 1 { return "\(reason) for event \(seq)" }
            }
        }
        return "unreachable"
    }

    /// Starts a thread that sends `rate × seconds` events, numbered from 1, the n-th due at
    /// `start + (n − 1) / rate`.
    ///
    /// - Parameters:
    ///   - rate: events per second.
    ///   - seconds: how long the schedule lasts.
    ///   - start: when the first event is due, monotonic nanoseconds.
    func start(rate: Double, seconds: Double, at start: UInt64) {
        precondition(thread == nil, "the writer runs once")
        thread = BmobIO.Thread.spawn(name: "fanout-writer") { [self] in
            let outcome = run(rate: rate, seconds: seconds, start: start)
            lock.withLock { report = outcome }
        }
    }

    /// The report once the thread has sent its last event, else `nil`; callable from any thread.
    var finishedReport: FanoutWriterReport? {
        lock.withLock { report }
    }

    /// Waits for the thread.
    func join() {
        thread?.join()
    }

    private func run(rate: Double, seconds: Double, start: UInt64) -> FanoutWriterReport {
        var outcome = FanoutWriterReport()
        outcome.start = start
        let total = max(1, Int((rate * seconds).rounded()))
        let interval = 1e9 / rate
        for seq in 1...total {
            let due = start + UInt64((Double(seq - 1) * interval).rounded())
            sleep(until: due)
            let sent = monotonicNanoseconds()
            outcome.lag.record(sent &- due)
            outcome.attempted += 1
            if let failure = post(seq: seq, sentAt: due) {
                outcome.failed += 1
                if outcome.firstFailure == nil { outcome.firstFailure = failure }
            } else {
                outcome.succeeded += 1
            }
            let answered = monotonicNanoseconds()
            outcome.responseTime.record(answered - sent)
            outcome.end = answered
        }
        return outcome
    }

    private func sleep(until deadline: UInt64) {
        #if os(Linux)
            // An absolute deadline, so wake-up delays do not add up over the schedule.
            var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        #else
            while case let now = monotonicNanoseconds(), now < deadline {
                var interval = timespec(
                    tv_sec: Int((deadline - now) / 1_000_000_000), tv_nsec: Int((deadline - now) % 1_000_000_000))
                nanosleep(&interval, nil)
            }
        #endif
    }

    // MARK: - One request

    private enum Exchange {
        case success(Int)
        case failure(String)
    }

    private func exchange(_ request: [UInt8]) -> Exchange {
        if fd < 0, let failure = connect() { return .failure(failure) }
        do {
            var sent = 0
            while sent < request.count {
                let result = try request.withUnsafeBytes { bytes throws(IOError) in
                    try Posix.send(fd, UnsafeRawBufferPointer(rebasing: bytes[sent...]))
                }
                switch result {
                case .processed(let count): sent += count
                case .wouldBlock: guard wait(for: Int16(POLLOUT)) else { return .failure("send timed out") }
                }
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let head = try? HTTPResponseScanner.scan(received) {
                    guard let length = head.contentLength else { return .failure("response without Content-Length") }
                    if received.count >= head.length + length {
                        received.removeFirst(head.length + length)
                        if head.head.headers.containsToken("close", in: "Connection") { disconnect() }
                        return .success(head.head.status.code)
                    }
                } else if received.count > HTTPResponseScanner.maximumHeadLength {
                    return .failure("malformed response")
                }
                let result = try chunk.withUnsafeMutableBytes { bytes throws(IOError) in try Posix.read(fd, into: bytes)
                }
                switch result {
                case .processed(0): return .failure("connection closed")
                case .processed(let count): received += chunk[..<count]
                case .wouldBlock: guard wait(for: Int16(POLLIN)) else { return .failure("response timed out") }
                }
            }
        } catch {
            return .failure("\(error)")
        }
    }

    private func connect() -> String? {
        do {
            fd = try Posix.socketTCP(family: address.family == .ipv4 ? AF_INET : AF_INET6)
            try? Posix.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
            if case .wouldBlock = try Posix.connect(fd, to: address) { return "connect would block" }
            guard wait(for: Int16(POLLOUT)) else { return "connect timed out" }
            let error = Posix.socketError(fd)
            guard error == 0 else { return "connect failed: \(String(cString: strerror(error)))" }
            received.removeAll()
            return nil
        } catch {
            return "\(error)"
        }
    }

    private func disconnect() {
        guard fd >= 0 else { return }
        Posix.close(fd)
        fd = -1
        received.removeAll()
    }

    /// Waits until the socket is ready for `events`; `false` on timeout.
    private func wait(for events: Int16) -> Bool {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let result = poll(&descriptor, 1, Self.timeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }
}
