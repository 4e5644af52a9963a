package import BmobWire

/// Reads the head of the server's answer to a WebSocket upgrade request: the status line and header
/// fields up to the empty line. Bytes after the head already belong to the WebSocket.
package enum HTTPResponseHeadParser {
    /// The longest head accepted, in bytes.
    package static let maximumHeadSize = 16 * 1024

    /// Where the head ends: the index just past its `\r\n\r\n`, or `nil` while it is incomplete.
    ///
    /// - Parameter bytes: the bytes received so far.
    /// - Returns: the head's length.
    package static func headLength(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// Parses a complete head.
    ///
    /// - Parameter head: the bytes up to and including `\r\n\r\n`.
    /// - Returns: the status and header fields.
    /// - Throws: ``WebSocketTransportError`` with `handshakeRejected` for a malformed head.
    package static func parse(_ head: ArraySlice<UInt8>) throws(WebSocketTransportError) -> HTTPResponseHead {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { throw WebSocketTransportError(.handshakeRejected, "empty HTTP response") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            throw WebSocketTransportError(.handshakeRejected, "malformed HTTP status line")
        }
        let reason = parts.count == 3 ? String(parts[2]) : ""
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line.hasPrefix(" "), !line.hasPrefix("\t")
            else {
                throw WebSocketTransportError(.handshakeRejected, "malformed HTTP header field")
            }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            headers.add(name: name, value: value)
        }
        return HTTPResponseHead(status: HTTPStatus(code: code, reasonPhrase: reason), headers: headers)
    }
}

extension Substring {
    /// The text without leading and trailing characters from `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
