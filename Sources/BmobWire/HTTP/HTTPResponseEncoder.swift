/// Serializes HTTP/1.1 responses.
///
/// The encoder owns the framing headers: it writes `Content-Length` (never chunked, bodies are complete),
/// `Connection: close` when the connection ends after this response, and the `Date` it is given. Fields of
/// those names in the head are ignored.
package enum HTTPResponseEncoder {
    /// Appends one complete response to `output`.
    ///
    /// - Parameters:
    ///   - head: status and headers.
    ///   - body: the body bytes; for a `HEAD` request pass the body anyway and set `omitBody`.
    ///   - keepAlive: `false` adds `Connection: close`.
    ///   - date: the IMF-fixdate text for the `Date` field, or `nil` to omit it.
    ///   - omitBody: write the length of `body` but not its bytes (responses to `HEAD`).
    package static func encode(
        _ head: HTTPResponseHead,
        body: [UInt8],
        keepAlive: Bool,
        date: String?,
        omitBody: Bool = false,
        into output: inout [UInt8]
    ) {
        output.reserveCapacity(output.count + 160 + body.count)
        if head.status == .ok {
            output.append(contentsOf: okStatusLine)
        } else {
            output.append(contentsOf: "HTTP/1.1 ".utf8)
            output.append(contentsOf: String(head.status.code).utf8)
            output.append(0x20)
            output.append(contentsOf: head.status.reasonPhrase.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        for field in head.headers where !isFramingField(field.name) {
            appendField(field.name, field.value, to: &output)
        }
        if let date {
            appendField("Date", date, to: &output)
        }
        let statusHasBody = head.status.code >= 200 && head.status.code != 204 && head.status.code != 304
        if statusHasBody {
            appendField("Content-Length", String(body.count), to: &output)
        }
        if !keepAlive {
            appendField("Connection", "close", to: &output)
        }
        output.append(contentsOf: "\r\n".utf8)
        if statusHasBody, !omitBody {
            output.append(contentsOf: body)
        }
    }

    /// The interim `100 Continue` response.
    package static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static let okStatusLine: [UInt8] = Array("HTTP/1.1 200 OK\r\n".utf8)

    /// Fields the encoder writes itself.
    private static func isFramingField(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: HTTPHeaders.namesEqual(name, "Date")
        case 10: HTTPHeaders.namesEqual(name, "Connection")
        case 14: HTTPHeaders.namesEqual(name, "Content-Length")
        case 17: HTTPHeaders.namesEqual(name, "Transfer-Encoding")
        default: false
        }
    }

    private static func appendField(_ name: String, _ value: String, to output: inout [UInt8]) {
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: ": ".utf8)
        // A value must not smuggle a line break into the header block.
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
            for byte in value.utf8 where byte != 0x0D && byte != 0x0A {
                output.append(byte)
            }
        } else {
            output.append(contentsOf: value.utf8)
        }
        output.append(contentsOf: "\r\n".utf8)
    }
}
