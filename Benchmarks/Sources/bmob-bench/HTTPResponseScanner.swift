import BmobWire

/// Reads an HTTP/1.1 response head from bytes received so far: the client side of the three small exchanges
/// the benchmark makes (socket.io handshake, WebSocket upgrade, REST create). BmobWire only decodes
/// requests, so this is the one response parser, and it knows only what those exchanges need.
struct HTTPResponseScanner {
    /// A complete head.
    struct Head {
        /// The response head, for `WebSocketHandshake.checkResponse`.
        var head: HTTPResponseHead
        /// Bytes of `buffer` the head took, blank line included; the body or frames follow.
        var length: Int

        /// `Content-Length` as a number, or `nil` when absent or not a number.
        var contentLength: Int? {
            head.headers["Content-Length"].flatMap { Int($0.filter { $0 != " " }) }
        }
    }

    /// Responses larger than this without a blank line are refused.
    static let maximumHeadLength = 16 * 1024

    /// The head at the start of `buffer`, `nil` while incomplete.
    ///
    /// - Parameter buffer: the bytes received so far on the connection.
    /// - Returns: the head and its length.
    /// - Throws: ``HTTPResponseScanner/Malformed`` when the bytes cannot be an HTTP/1.x response head.
    static func scan(_ buffer: some RandomAccessCollection<UInt8>) throws(Malformed) -> Head? {
        let bytes = Array(buffer.prefix(maximumHeadLength + 4))
        guard let end = headEnd(bytes) else {
            if bytes.count > maximumHeadLength { throw Malformed(reason: "response head over 16 KiB") }
            return nil
        }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let statusLine = lines.popFirst(), statusLine.hasPrefix("HTTP/1.") else {
            throw Malformed(reason: "not an HTTP/1.x status line")
        }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let code = Int(parts[1]), (100...599).contains(code) else {
            throw Malformed(reason: "bad status line")
        }
        var headers = HTTPHeaders()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(reason: "header line without ':'") }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.add(name: String(line[..<colon]), value: String(value))
        }
        return Head(head: HTTPResponseHead(status: HTTPStatus(code: code), headers: headers), length: end + 4)
    }

    /// Where `\r\n\r\n` starts, if anywhere.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Bytes that are not an HTTP response head.
    struct Malformed: Error, CustomStringConvertible {
        /// What was wrong.
        var reason: String
        var description: String { "malformed HTTP response: \(reason)" }
    }
}
