import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address with a port.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    package enum Family: Sendable, Hashable {
        case ipv4
        case ipv6
    }

    /// Address bytes in network order, kept inline (no array to retain when requests are copied).
    private var storage: (UInt64, UInt64) = (0, 0)
    package let family: Family
    package var port: UInt16

    /// Raw address bytes in network order (4 or 16 bytes).
    package var bytes: [UInt8] {
        get {
            withUnsafeBytes(of: storage) { Array($0.prefix(family == .ipv4 ? 4 : 16)) }
        }
        set {
            precondition(newValue.count == (family == .ipv4 ? 4 : 16), "address length does not match its family")
            storage = Self.pack(newValue)
        }
    }

    private static func pack(_ bytes: [UInt8]) -> (UInt64, UInt64) {
        var storage: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes) }
        return storage
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.family == rhs.family && lhs.port == rhs.port && lhs.storage == rhs.storage
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(port)
        hasher.combine(storage.0)
        hasher.combine(storage.1)
    }

    /// Parses a numeric IPv4 or IPv6 host (`127.0.0.1`, `::1`, `[::1]`); `localhost` means `127.0.0.1`.
    package init?(host: String, port: UInt16) {
        var host = host
        if host == "localhost" { host = "127.0.0.1" }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            family = .ipv4
            storage = Self.pack(withUnsafeBytes(of: &v4) { Array($0) })
            self.port = port
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            family = .ipv6
            storage = Self.pack(withUnsafeBytes(of: &v6) { Array($0) })
            self.port = port
            return
        }
        return nil
    }

    init(storage: sockaddr_storage) {
        var storage = storage
        if Int32(storage.ss_family) == AF_INET6 {
            let address = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
            }
            var raw = address.sin6_addr
            family = .ipv6
            self.storage = SocketAddress.pack(withUnsafeBytes(of: &raw) { Array($0) })
            port = UInt16(bigEndian: address.sin6_port)
        } else {
            let address = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
            }
            var raw = address.sin_addr
            family = .ipv4
            self.storage = SocketAddress.pack(withUnsafeBytes(of: &raw) { Array($0) })
            port = UInt16(bigEndian: address.sin_port)
        }
    }

    /// The numeric host text (`127.0.0.1`, `::1`).
    package var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var raw = bytes
        let result = raw.withUnsafeMutableBytes { pointer in
            inet_ntop(family == .ipv4 ? AF_INET : AF_INET6, pointer.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard result != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package var description: String {
        family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    func withSockAddr<T, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> T) throws(E) -> T {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin_addr) { target in
                withUnsafeBytes(of: storage) { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(4))) }
            }
            return try withUnsafePointer(to: &address) { pointer throws(E) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(E) in
                    try body(address, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { target in
                withUnsafeBytes(of: storage) { target.copyMemory(from: $0) }
            }
            return try withUnsafePointer(to: &address) { pointer throws(E) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(E) in
                    try body(address, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}
