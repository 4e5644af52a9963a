package import Foundation

/// The WebSocket URL of a client: `wss://{host}[:port]/app/{appKey}?protocol=7&client=bird-swift&version=…&prefix=bird`.
///
/// The host is ``BirdRealtimeOptions/wsHost`` when set, else `ws-{region}.bird.com`. `ws://` is used only when
/// ``BirdRealtimeOptions/allowInsecure`` is set **and** the host is `localhost`, `127.0.0.1` or `::1`.
package struct BirdEndpoint: Sendable, Hashable {
    /// The client name sent in the query.
    package static let clientName = "bird-swift"
    /// The client version sent in the query.
    package static let clientVersion = "0.1.0"
    /// The domain under which region hosts live: `ws-{region}.{edgeDomain}`.
    package static let edgeDomain = "bird.com"

    /// The host name or address, without IPv6 brackets.
    package var host: String
    /// The port, when one was given.
    package var port: Int?
    /// Whether the connection uses TLS.
    package var isSecure: Bool
    /// The full URL.
    package var url: URL

    /// The endpoint for `options`.
    ///
    /// - Parameter options: the client's options.
    /// - Throws: ``BirdRealtimeError`` when there is neither a region nor a host, the host is malformed, or the
    ///   region or app key has characters a host or path cannot hold.
    package init(options: BirdRealtimeOptions) throws(BirdRealtimeError) {
        let (host, port): (String, Int?)
        if let wsHost = options.wsHost {
            (host, port) = try Self.split(wsHost)
        } else if let region = options.region {
            guard !region.isEmpty, region.utf8.allSatisfy(Self.isRegionByte) else {
                throw BirdRealtimeError(message: "region must be letters, digits and '-', such as us1 or eu1")
            }
            (host, port) = ("ws-\(region.lowercased()).\(Self.edgeDomain)", nil)
        } else {
            throw BirdRealtimeError(message: "set a region (us1, eu1) or a wsHost")
        }
        guard !options.appKey.isEmpty, options.appKey.utf8.allSatisfy(Self.isKeyByte) else {
            throw BirdRealtimeError(message: "the app key must be non-empty ASCII letters, digits, '-', '_' or '.'")
        }
        let secure = !(options.allowInsecure && Self.isLoopback(host))
        let authority = (host.contains(":") ? "[\(host)]" : host) + (port.map { ":\($0)" } ?? "")
        let text =
            "\(secure ? "wss" : "ws")://\(authority)/app/\(options.appKey)?protocol=7"
            + "&client=\(Self.clientName)&version=\(Self.clientVersion)&prefix=bird"
        guard let url = URL(string: text) else { throw BirdRealtimeError(message: "the edge URL is malformed") }
        self.host = host
        self.port = port
        self.isSecure = secure
        self.url = url
    }

    /// Whether `host` is one of the loopback names `ws://` is allowed for: `localhost`, `127.0.0.1`, `::1`.
    ///
    /// - Parameter host: a host without brackets.
    /// - Returns: `true` for the three loopback names only.
    package static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        return lower == "localhost" || lower == "127.0.0.1" || lower == "::1"
    }

    /// Splits `host`, `host:port`, `[v6]` or `[v6]:port`.
    private static func split(_ text: String) throws(BirdRealtimeError) -> (String, Int?) {
        let invalid = BirdRealtimeError(message: "wsHost must be host or host:port")
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw invalid }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw invalid }
                portText = rest.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, host.utf8.allSatisfy(isHostByte) else { throw invalid }
        var port: Int?
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value),
                portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { throw invalid }
            port = value
        }
        return (String(host), port)
    }

    private static func isRegionByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isRegionByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        isRegionByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }
}
