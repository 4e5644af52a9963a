import BmobIO
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kernel's floor under realtime fan-out on this machine: one message written to each of N loopback TCP
/// connections, nothing else. No framing, no bookkeeping, no event loop — a `write` per connection in a
/// tight loop while another process reads them all — so its time per round is what any server pays the
/// kernel to hand one event to N subscribers here, whatever its own code costs.
///
///     bmob-bench fanout-floor-send [--connections 10000] [--bytes 300] [--rounds 20] [--threads 1]
///                                  [--interval-ms 200]
///     bmob-bench fanout-floor-receive --port P [--connections 10000] [--bytes 300]
///
/// The sender listens on a free loopback port, prints `port P` on a line, accepts the connections, then
/// writes `--bytes` bytes to every one of them once per round, `--threads` threads each taking an equal
/// share, a pause of `--interval-ms` between rounds so the reader drains. It prints one JSON object: each
/// round's time from the first write to the last write's return (on loopback the data is then in the
/// receiver's socket; the kernel runs the receiving side's TCP work inside the sender's `write`), and the
/// sender's CPU time, and each round's start on the monotonic clock. The receiver connects, reads everything
/// with epoll until the sender closes, and prints when (on the same clock) the last byte of each round was
/// read: with the start, one event's time to be read on every connection, what a client measures.
enum FanoutFloor {
    /// What the sender prints (keys in snake case).
    struct Result: Encodable {
        var connections: Int
        var bytes: Int
        var threads: Int
        var roundsMilliseconds: [Double]
        /// Each round's first write, on the monotonic clock (nanoseconds).
        var roundStarts: [UInt64]
        var medianMilliseconds: Double
        var minimumMilliseconds: Double
        var maximumMilliseconds: Double
        /// Median round time / connections.
        var microsecondsPerWrite: Double
        /// The sender's CPU time over the rounds / (rounds × connections).
        var cpuMicrosecondsPerWrite: Double

        enum CodingKeys: String, CodingKey {
            case connections, bytes, threads
            case roundsMilliseconds = "rounds_ms"
            case roundStarts = "round_start_ns"
            case medianMilliseconds = "median_ms"
            case minimumMilliseconds = "min_ms"
            case maximumMilliseconds = "max_ms"
            case microsecondsPerWrite = "us_per_write"
            case cpuMicrosecondsPerWrite = "cpu_us_per_write"
        }
    }

    private static let usage = """
        usage: bmob-bench fanout-floor-send [--connections N] [--bytes N] [--rounds N] [--threads N] [--interval-ms N]
               bmob-bench fanout-floor-receive --port P [--connections N] [--bytes N]
        """

    /// `fanout-floor-send`: listens, accepts, writes the rounds, prints the result.
    static func send(_ arguments: [String]) -> Never {
        let options = parse(arguments, allowed: ["--connections", "--bytes", "--rounds", "--threads", "--interval-ms"])
        let connections = options["--connections"] ?? 10_000
        let bytes = options["--bytes"] ?? 300
        let rounds = options["--rounds"] ?? 20
        let threads = min(options["--threads"] ?? 1, connections)
        let interval = options["--interval-ms"] ?? 200
        raiseDescriptorLimit(needed: connections + 64)

        // A blocking socket (BmobIO's own are non-blocking), set up with BmobIO's Posix calls.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { fail("socket failed: errno \(errno)") }
        let port: UInt16
        do {
            try Posix.bind(listener, to: loopback(port: 0))
            try Posix.listen(listener, backlog: 4096)
            port = try Posix.localAddress(listener).port
        } catch {
            fail("cannot listen on loopback: \(error)")
        }
        let announcement = Array("port \(port)\n".utf8)
        _ = announcement.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }

        var descriptors: [Int32] = []
        descriptors.reserveCapacity(connections)
        while descriptors.count < connections {
            let accepted = accept(listener, nil, nil)
            guard accepted >= 0 else {
                if errno == EINTR { continue }
                fail("accept failed after \(descriptors.count) connections: errno \(errno)")
            }
            setNoDelay(accepted)
            descriptors.append(accepted)
        }
        close(listener)
        usleep(1_000_000)  // let the receiver settle into epoll_wait

        let message = [UInt8](repeating: 0x78, count: bytes)
        let shares = (0..<threads).map { thread in stride(from: thread, to: connections, by: threads).map { descriptors[$0] } }
        var times: [Double] = []
        var starts: [UInt64] = []
        let cpuBefore = ProcessSample.ownCPUSeconds()
        for _ in 0..<rounds {
            let start = monotonicNanoseconds()
            starts.append(start)
            if threads == 1 {
                write(message, to: shares[0])
            } else {
                DispatchQueue.concurrentPerform(iterations: threads) { write(message, to: shares[$0]) }
            }
            times.append(Double(monotonicNanoseconds() - start) / 1e6)
            usleep(useconds_t(interval * 1000))
        }
        let cpu = ProcessSample.ownCPUSeconds() - cpuBefore
        for descriptor in descriptors { close(descriptor) }

        let sorted = times.sorted()
        let median = sorted[sorted.count / 2]
        let result = Result(
            connections: connections, bytes: bytes, threads: threads, roundsMilliseconds: times, roundStarts: starts,
            medianMilliseconds: median, minimumMilliseconds: sorted[0], maximumMilliseconds: sorted[sorted.count - 1],
            microsecondsPerWrite: median * 1000 / Double(connections),
            cpuMicrosecondsPerWrite: cpu * 1e6 / Double(rounds * connections))
        guard let json = try? JSONEncoder().encode(result) else { fail("cannot encode the result") }
        print(String(decoding: json, as: UTF8.self))
        exit(0)
    }

    /// `fanout-floor-receive`: connects, reads until every connection is closed, exits.
    static func receive(_ arguments: [String]) -> Never {
        let options = parse(arguments, allowed: ["--port", "--connections", "--bytes"])
        guard let port = options["--port"], port > 0, port <= Int(UInt16.max) else { fail("--port is required\n\(usage)") }
        let connections = options["--connections"] ?? 10_000
        let roundBytes = connections * (options["--bytes"] ?? 300)
        raiseDescriptorLimit(needed: connections + 64)
        let selector: any Selector
        do {
            selector = try SelectorKind.platformDefault.makeSelector()
        } catch {
            fail("cannot make a selector: \(error)")
        }
        let address = loopback(port: UInt16(port))
        for index in 0..<connections {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { fail("socket failed: errno \(errno)") }
            do {
                _ = try Posix.connect(descriptor, to: address)  // blocking: returns connected
                setNoDelay(descriptor)
                try selector.register(fd: descriptor, interest: .readable, token: UInt64(descriptor))
            } catch {
                fail("connection \(index) failed: \(error)")
            }
        }
        var open = connections
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        var roundsRead: [UInt64] = []
        while open > 0 {
            do {
                try selector.whenReady(timeoutNanoseconds: nil) { token, _ in
                    let descriptor = Int32(token)
                    let count = read(descriptor, &buffer, buffer.count)
                    if count > 0 {
                        total += count
                        if total >= (roundsRead.count + 1) * roundBytes { roundsRead.append(monotonicNanoseconds()) }
                    } else {
                        try? selector.deregister(fd: descriptor)
                        close(descriptor)
                        open -= 1
                    }
                }
            } catch {
                fail("waiting for reads failed: \(error)")
            }
        }
        print("{\"round_read_ns\":[\(roundsRead.map(String.init).joined(separator: ","))]}")
        exit(0)
    }

    private static func write(_ message: [UInt8], to descriptors: [Int32]) {
        message.withUnsafeBytes { bytes in
            for descriptor in descriptors where Glibc.write(descriptor, bytes.baseAddress, bytes.count) != bytes.count {
                fail("a write did not take the whole message (errno \(errno)); the receiver is not keeping up")
            }
        }
    }

    private static func setNoDelay(_ descriptor: Int32) {
        try? Posix.setOption(descriptor, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    }

    private static func loopback(port: UInt16) -> SocketAddress {
        guard let address = SocketAddress(host: "127.0.0.1", port: port) else { fail("no loopback address") }
        return address
    }

    /// Integer options; every one must be in `allowed` and positive.
    private static func parse(_ arguments: [String], allowed: Set<String>) -> [String: Int] {
        var options: [String: Int] = [:]
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard allowed.contains(flag) else { fail("unknown option \(flag)\n\(usage)") }
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                fail("\(flag) needs a positive integer")
            }
            options[flag] = value
        }
        return options
    }
}
