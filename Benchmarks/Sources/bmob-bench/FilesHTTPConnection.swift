import BmobIO
import BmobWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blocking keep-alive HTTP/1.1 connection to a loopback port, for the files benchmark's upload client:
/// a request goes out as its head and then its body straight from the caller's buffer (an 8 MiB part is not
/// copied), and the answer is read whole (heads through ``HTTPResponseScanner``, bodies by `Content-Length`).
///
/// Threading: one thread uses a connection at a time.
final class FilesHTTPConnection {
    /// An answer: its status, head fields and body.
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    /// Bytes read past the end of the previous answer (none in practice: one request at a time).
    private var input: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Connects to `127.0.0.1:port`; fails the benchmark when it cannot.
    init(port: UInt16) {
        guard let address = SocketAddress(host: "127.0.0.1", port: port) else { fail("no loopback address") }
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { fail("socket failed: errno \(errno)") }
        do {
            _ = try Posix.connect(fd, to: address)  // blocking: returns connected
        } catch {
            fail("cannot connect to 127.0.0.1:\(port): \(error)")
        }
        try? Posix.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    }

    deinit {
        Posix.close(fd)
    }

    /// Sends `method target` with `headers` (a `Content-Length` for `body` is added) and returns the answer.
    func request(
        _ method: String, _ target: String, headers: [(name: String, value: String)], body: UnsafeRawBufferPointer
    ) -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        var headBytes = Array(head.utf8)
        headBytes.withUnsafeBytes { send($0) }
        headBytes.removeAll()
        if body.count > 0 { send(body) }
        return receive()
    }

    /// ``request(_:_:headers:body:)`` with a body held in an array.
    func request(_ method: String, _ target: String, headers: [(name: String, value: String)], body: [UInt8] = [])
        -> Response
    {
        body.withUnsafeBytes { request(method, target, headers: headers, body: $0) }
    }

    private func send(_ bytes: UnsafeRawBufferPointer) {
        var sent = 0
        while sent < bytes.count {
            let count = write(fd, bytes.baseAddress! + sent, bytes.count - sent)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { fail("sending to the server failed: errno \(errno)") }
            sent += count
        }
    }

    /// Reads more bytes into `input`; fails when the server closed the connection.
    private func fill() {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { fail("the server closed the connection in the middle of an answer (errno \(errno))") }
            input += chunk[..<count]
            return
        }
    }

    private func receive() -> Response {
        var scanned: HTTPResponseScanner.Head?
        while true {
            do {
                scanned = try HTTPResponseScanner.scan(input)
            } catch {
                fail("malformed answer: \(error)")
            }
            if scanned != nil { break }
            fill()
        }
        let head = scanned!
        guard let length = head.contentLength else {
            fail("an answer without Content-Length (status \(head.head.status.code))")
        }
        while input.count < head.length + length { fill() }
        let body = Array(input[head.length..<(head.length + length)])
        input.removeSubrange(..<(head.length + length))
        return Response(status: Int(head.head.status.code), headers: head.head.headers, body: body)
    }
}
