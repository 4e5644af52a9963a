import BmobCrypto
import BmobWire
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-connection SMTP server on loopback for tests: it accepts `EHLO`, `AUTH PLAIN` (checking the
/// credentials it was given), `MAIL`, `RCPT`, `DATA` and `QUIT`, and records what it got.
///
/// Invariant for `@unchecked Sendable`: `received*` are only touched under `lock`; the socket belongs to the
/// server's one thread after `init`.
final class FakeSMTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var receivedCommands: [String] = []
    private var receivedData: String?
    private let username: String
    private let password: String

    /// Listens on `127.0.0.1`, port 0, and serves one connection on a thread of its own.
    init(username: String, password: String) throws {
        self.username = username
        self.password = password
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
                guard bind(fd, raw, length) == 0, listen(fd, 1) == 0 else { return -1 }
                return getsockname(fd, raw, &length)
            }
        }
        listener = fd
        guard bound == 0 else { throw TestFailure("the fake SMTP server cannot listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    deinit {
        close(listener)
    }

    /// The commands received, in order (`DATA`'s content excluded).
    var commands: [String] { lock.withLock { receivedCommands } }

    /// The message received after `DATA`, without the final dot line.
    var data: String? { lock.withLock { receivedData } }

    private func serve() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var buffer: [UInt8] = []
        func reply(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
        }
        func line() -> String? {
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let text = String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: ["\r"])
                    buffer.removeSubrange(...end)
                    return text
                }
                var chunk = [UInt8](repeating: 0, count: 1024)
                let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                buffer.append(contentsOf: chunk.prefix(count))
            }
        }
        reply("220 fake.example ESMTP\r\n")
        while let command = line() {
            lock.withLock { receivedCommands.append(command) }
            let verb = command.split(separator: " ").first.map { $0.uppercased() } ?? ""
            switch verb {
            case "EHLO": reply("250-fake.example\r\n250-AUTH LOGIN PLAIN\r\n250 8BITMIME\r\n")
            case "AUTH":
                let expected = Base64.encodeString(Array("\0\(username)\0\(password)".utf8))
                reply(command == "AUTH PLAIN \(expected)" ? "235 2.7.0 accepted\r\n" : "535 5.7.8 bad credentials\r\n")
            case "MAIL", "RCPT": reply("250 ok\r\n")
            case "DATA":
                reply("354 end with a dot\r\n")
                var lines: [String] = []
                while let next = line(), next != "." { lines.append(next) }
                lock.withLock { receivedData = lines.joined(separator: "\r\n") }
                reply("250 2.0.0 queued\r\n")
            case "QUIT":
                reply("221 bye\r\n")
                return
            default: reply("500 what\r\n")
            }
        }
    }
}
