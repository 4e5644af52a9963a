import BmobWire
import BmobIO
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection that sends raw bytes and reads HTTP/1.1 responses, for tests that need control
/// over every byte (malformed requests, pipelining, slow clients) or must see exactly what the server sent.
///
/// Every call blocks a thread of a private pool, never a thread of Swift's shared executor: tests run in
/// parallel, and blocked shared threads would stall unrelated tasks (a server's shutdown, say).
///
/// Not thread-safe: use one connection from one task at a time — except that one send may run beside one read
/// (an upload racing its answer): sends touch only the socket.
package final class RawHTTPConnection: @unchecked Sendable {
    // Invariant: callers never use one connection from two tasks at once (documented above), except a send
    // beside a read, and sends touch only `fd`; each call runs to completion on a pool thread before the caller
    // continues, so `buffer` is touched by one thread at a time. `closed` is set once, by `reset()`.
    // Many tests wait on reads at once when the whole suite runs in parallel; threads are cheap while they
    // wait, and too few of them would delay unrelated tests' sends past their protocol timeouts.
    private static let pool = ThreadPool(threadCount: 128, name: "raw-http")
    private let fd: Int32
    private var closed = false
    private var buffer: [UInt8] = []
    /// Seconds a read waits before ``RawHTTPError/timeout``.
    package var timeout: Double
    /// The default read timeout: generous, because it only matters when something is wrong, and the whole
    /// suite runs in parallel on two cores, where a request may wait for a core behind tests that burn CPU on
    /// purpose (work-limit and regex corpus tests): a 5 s limit, then a 20 s one, each failed a correct test.
    package static let defaultTimeout: Double = 60

    /// Connects to `host:port` (numeric IPv4). Connecting to loopback does not block.
    ///
    /// - Parameter source: the local address to connect from (numeric IPv4), e.g. `127.0.0.2`, so that a test
    ///   can act as several clients: every `127.x.y.z` is loopback on Linux. `nil` lets the kernel choose.
    package init(
        host: String = "127.0.0.1", port: Int, source: String? = nil, timeout: Double = RawHTTPConnection.defaultTimeout
    ) throws {
        self.timeout = timeout
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError.io("socket: errno \(errno)") }
        // Close-on-exec: a suite holds thousands of these at once, and a program the tests start meanwhile (the
        // PostgreSQL a failover test restarts through `system`) would inherit them all and run out of descriptors.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        if let source {
            let bound = Self.withAddress(source, port: 0) { bind(fd, $0, $1) }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw RawHTTPError.io("bind \(source): errno \(code)")
            }
        }
        let result = Self.withAddress(host, port: port) { connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw RawHTTPError.io("connect: errno \(code)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        if !closed { close(fd) }
    }

    /// Closes the connection abruptly (a reset, not a FIN): a client that gives up mid-transfer.
    package func reset() {
        guard !closed else { return }
        closed = true
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
    }

    /// Calls `body` with `host:port` (numeric IPv4) as a `sockaddr` and its length.
    private static func withAddress<T>(
        _ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    ) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Sends every byte.
    package func send(_ bytes: [UInt8]) async throws {
        try await Self.pool.run { _ in try self.blockingSend(bytes) }
    }

    package func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Sends `block` over and over until `count` bytes are sent (the last copy cut short): a large body without
    /// holding it. Blocks while the server does not read.
    package func send(repeating block: [UInt8], count: Int) async throws {
        precondition(!block.isEmpty, "nothing to repeat")
        try await Self.pool.run { _ in
            var left = count
            while left > 0 {
                let piece = min(left, block.count)
                try self.blockingSend(piece == block.count ? block : Array(block[..<piece]))
                left -= piece
            }
        }
    }

    private func blockingSend(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw RawHTTPError.io("send: errno \(errno)") }
            offset += sent
        }
    }

    /// Half-closes the connection: the server sees end of stream.
    package func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads more bytes into the buffer; `false` at end of stream.
    private func fill() throws -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        guard ready > 0 else { throw RawHTTPError.timeout }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw RawHTTPError.io("recv: errno \(errno)")
        }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one complete response (Content-Length framed, or up to end of stream).
    ///
    /// - Parameters:
    ///   - interim: return `100 Continue` and other 1xx responses instead of skipping them.
    ///   - toHead: the answer to a `HEAD` request, which has no body whatever its `Content-Length` says.
    package func readResponse(interim: Bool = false, toHead: Bool = false) async throws -> RawHTTPResponse {
        try await Self.pool.run { _ in try self.blockingReadResponse(interim: interim, toHead: toHead) }
    }

    private func blockingReadResponse(interim: Bool, toHead: Bool) throws -> RawHTTPResponse {
        while true {
            let response = toHead ? try readHead() : try readOneResponse()
            if response.status >= 200 || interim { return response }
        }
    }

    private func readHead() throws -> RawHTTPResponse {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = findHeadEnd()
            if headEnd == nil {
                guard try fill() else { throw RawHTTPError.closed }
            }
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw RawHTTPError.malformed("empty head") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw RawHTTPError.malformed("bad status line '\(statusLine)'")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw RawHTTPError.malformed("bad header '\(line)'") }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingSpaces())
        }
        buffer.removeFirst(headEnd!)
        let reason = parts.count > 2 ? String(parts[2]) : ""
        return RawHTTPResponse(status: status, reason: reason, headers: headers, body: [])
    }

    private func readOneResponse() throws -> RawHTTPResponse {
        var response = try readHead()
        var body: [UInt8] = []
        _ = try readBody(of: response) { piece in
            body += piece
            return true
        }
        response.body = body
        return response
    }

    /// Reads the body that follows `response`'s head — `Content-Length`, chunked, or up to end of stream — and
    /// hands it to `consume` piece by piece, until `consume` returns `false`.
    ///
    /// - Returns: whether the whole body was read.
    private func readBody(of response: RawHTTPResponse, _ consume: (ArraySlice<UInt8>) -> Bool) throws -> Bool {
        guard response.status >= 200, response.status != 204, response.status != 304 else { return true }
        if response.headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            return try readChunkedBody(consume)
        }
        if let lengthText = response.headers["Content-Length"], let length = Int(lengthText) {
            return try (consumeBytes(length, consume) ?? 0) == 0
        }
        while true {
            if !buffer.isEmpty {
                let keepGoing = consume(buffer[...])
                buffer = []
                if !keepGoing { return false }
            }
            guard try fill() else { return true }
        }
    }

    /// Hands the next `count` body bytes to `consume` as they arrive. Returns `nil` when all were consumed, or
    /// the bytes left when `consume` asked to stop.
    private func consumeBytes(_ count: Int, _ consume: (ArraySlice<UInt8>) -> Bool) throws -> Int? {
        var left = count
        while left > 0 {
            if buffer.isEmpty {
                guard try fill() else { throw RawHTTPError.closed }
            }
            let piece = min(left, buffer.count)
            let keepGoing = consume(buffer[..<piece])
            buffer.removeFirst(piece)
            left -= piece
            if !keepGoing { return left }
        }
        return nil
    }

    private func readChunkedBody(_ consume: (ArraySlice<UInt8>) -> Bool) throws -> Bool {
        while true {
            let sizeLine = try readLine()
            let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingSpaces(), radix: 16) else {
                throw RawHTTPError.malformed("bad chunk size '\(sizeLine)'")
            }
            if size == 0 {
                while try !readLine().isEmpty {}  // trailer fields, then the empty line
                return true
            }
            guard try consumeBytes(size, consume) == nil else { return false }
            guard try readLine().isEmpty else { throw RawHTTPError.malformed("chunk not followed by CRLF") }
        }
    }

    /// The next line of the stream, without its CRLF.
    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                var line = buffer[..<end]
                if line.last == 0x0D { line = line.dropLast() }
                let text = String(decoding: line, as: UTF8.self)
                buffer.removeFirst(end + 1)
                return text
            }
            guard try fill() else { throw RawHTTPError.closed }
        }
    }

    /// Reads one response, handing its body to `consume` piece by piece instead of keeping it (bodies too large
    /// to hold); `consume` returns `false` to stop reading the body there, as a client that gives up would.
    ///
    /// - Returns: the response without its body, and whether the whole body was read.
    package func readStreamedResponse(
        _ consume: @escaping @Sendable (ArraySlice<UInt8>) -> Bool
    ) async throws -> (response: RawHTTPResponse, complete: Bool) {
        try await Self.pool.run { _ in
            var response = try self.readHead()
            while response.status < 200 { response = try self.readHead() }
            let complete = try self.readBody(of: response, consume)
            return (response, complete)
        }
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 3..<buffer.count
        where buffer[index] == 0x0A && buffer[index - 1] == 0x0D && buffer[index - 2] == 0x0A && buffer[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// Bytes already received and not yet returned, or else the next bytes to arrive; empty at end of
    /// stream. For protocols that follow an HTTP response on the same connection (WebSocket).
    package func receive() async throws -> [UInt8] {
        try await Self.pool.run { _ in
            if self.buffer.isEmpty, try !self.fill() { return [] }
            defer { self.buffer = [] }
            return self.buffer
        }
    }

    /// Bytes already received and not yet returned, without reading more.
    package func receiveBuffered() async throws -> [UInt8] {
        try await Self.pool.run { _ in
            defer { self.buffer = [] }
            return self.buffer
        }
    }

    /// Waits until the server closes the connection; `true` if it did within the timeout. Unread bytes are
    /// discarded.
    package func waitForClose() async -> Bool {
        (try? await Self.pool.run { _ in self.blockingWaitForClose() }) ?? false
    }

    private func blockingWaitForClose() -> Bool {
        do {
            while try fill() {}
            return true
        } catch {
            return false
        }
    }
}

/// Why a ``RawHTTPConnection`` call failed.
package enum RawHTTPError: Error, Equatable {
    case io(String)
    case timeout
    case closed
    case malformed(String)
}
