#if canImport(Glibc)
    import BmobWire
    import Foundation
    import Glibc

    /// A raw-socket WebSocket server on `127.0.0.1` that completes the opening handshake by hand and then sends
    /// whatever bytes a test scripts for each connection, in order: a hostile peer for the client's real transport.
    ///
    /// Invariant for `@unchecked Sendable`: `accepted` is read and written only while `lock` is held; the listening
    /// descriptor is immutable and closed once, by ``stop()``.
    final class RawWebSocketPeer: @unchecked Sendable {
        /// What the peer sends on its `n`th connection (0-based), after the handshake.
        typealias Script = @Sendable (_ connection: Int) -> [[UInt8]]

        let port: Int
        private let listener: Int32
        private let lock = NSLock()
        private var accepted = 0

        /// The number of connections accepted so far.
        var connections: Int { lock.withLock { accepted } }

        init(script: @escaping Script) throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("socket failed") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, listen(descriptor, 8) == 0 else {
                close(descriptor)
                throw TestFailure("bind or listen failed")
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            listener = descriptor
            let thread = Thread { [self] in
                while true {
                    let connection = accept(descriptor, nil, nil)
                    guard connection >= 0 else { return }
                    let index = lock.withLock { () -> Int in
                        defer { accepted += 1 }
                        return accepted
                    }
                    Thread { Self.serve(connection, frames: script(index)) }.start()
                }
            }
            thread.start()
        }

        /// Stops accepting.
        func stop() {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }

        /// A server frame (unmasked) with FIN set.
        static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
            var bytes: [UInt8] = [0x80 | opcode]
            switch payload.count {
            case 0..<126: bytes.append(UInt8(payload.count))
            case 126...0xFFFF: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            default:
                bytes.append(127)
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF))
                }
            }
            return bytes + payload
        }

        /// A text frame.
        static func text(_ text: String) -> [UInt8] { frame(opcode: 1, Array(text.utf8)) }

        private static func serve(_ connection: Int32, frames: [[UInt8]]) {
            defer { close(connection) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                request += buffer[0..<count]
            }
            let head = String(decoding: request, as: UTF8.self)
            guard
                let keyLine = head.split(separator: "\r\n").first(where: {
                    $0.lowercased().hasPrefix("sec-websocket-key:")
                })
            else { return }
            let key = keyLine.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
            let response =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
            guard sendAll(connection, Array(response.utf8)) else { return }
            for frame in frames {
                guard sendAll(connection, frame) else { return }
            }
            // Wait for the client to close (or the receive timeout).
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
        }

        private static func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }
#endif
