package import BmobWire

/// Serializes HTTP/1.1 responses.
///
/// The encoder owns the framing headers: it writes `Content-Length` for a complete body (``encode(_:body:keepAlive:date:omitBody:into:)``)
/// or the framing a streamed body is sent with (``encodeHead(_:framing:keepAlive:date:into:)``, then
/// ``appendChunk(_:to:)`` and ``lastChunk`` for chunked bodies), `Connection: close` when the connection ends
/// after this response, and the `Date` it is given. Fields of those names in the head are ignored — except in a
/// `101 Switching Protocols` head, whose `Connection: Upgrade` is part of the protocol switch and which has no
/// body to frame.
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
        } else if head.status == .created {
            output.append(contentsOf: createdStatusLine)
        } else {
            appendBytes(of: "HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n", to: &output)
        }
        let switching = head.status.code == 101
        for field in head.headers where switching || !isFramingField(field.name) {
            appendField(field.name, field.value, to: &output)
        }
        if let date {
            appendField("Date", date, to: &output)
        }
        let statusHasBody = head.status.code >= 200 && head.status.code != 204 && head.status.code != 304
        if statusHasBody {
            output.append(contentsOf: contentLengthPrefix)
            ASCIIDecimal.append(body.count, to: &output)
            output.append(0x0D)
            output.append(0x0A)
        }
        if !keepAlive {
            appendField("Connection", "close", to: &output)
        }
        output.append(0x0D)
        output.append(0x0A)
        if statusHasBody, !omitBody {
            output.append(contentsOf: body)
        }
    }

    /// Appends the head of a response whose body is sent after it, piece by piece, framed by `framing`.
    ///
    /// - Parameters:
    ///   - head: status and headers.
    ///   - framing: how the body is delimited; ignored (no framing field) when the status has no body.
    ///   - keepAlive: `false` adds `Connection: close` (required with ``HTTPBodyFraming/untilClose``).
    ///   - date: the IMF-fixdate text for the `Date` field, or `nil` to omit it.
    package static func encodeHead(
        _ head: HTTPResponseHead,
        framing: HTTPBodyFraming,
        keepAlive: Bool,
        date: String?,
        into output: inout [UInt8]
    ) {
        appendBytes(of: "HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n", to: &output)
        for field in head.headers where !isFramingField(field.name) {
            appendField(field.name, field.value, to: &output)
        }
        if let date {
            appendField("Date", date, to: &output)
        }
        if head.status.permitsBody {
            switch framing {
            case .length(let length):
                output.append(contentsOf: contentLengthPrefix)
                ASCIIDecimal.append(length, to: &output)
                output.append(0x0D)
                output.append(0x0A)
            case .chunked:
                appendField("Transfer-Encoding", "chunked", to: &output)
            case .untilClose:
                break
            }
        }
        if !keepAlive {
            appendField("Connection", "close", to: &output)
        }
        output.append(0x0D)
        output.append(0x0A)
    }

    /// Appends `bytes` as one chunk of a chunked body: size in hex, CRLF, the bytes, CRLF. An empty `bytes`
    /// appends nothing, since an empty chunk would end the body (that is ``lastChunk``).
    package static func appendChunk(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.reserveCapacity(output.count + bytes.count + 20)
        var size = bytes.count
        var digits: [UInt8] = []
        while size > 0 {
            digits.append(hexDigits[size & 0xF])
            size >>= 4
        }
        output.append(contentsOf: digits.reversed())
        output.append(0x0D)
        output.append(0x0A)
        output.append(contentsOf: bytes)
        output.append(0x0D)
        output.append(0x0A)
    }

    /// The last chunk of a chunked body, with no trailer fields.
    package static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The interim `100 Continue` response.
    package static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static let okStatusLine: [UInt8] = Array("HTTP/1.1 200 OK\r\n".utf8)
    /// Every create answers 201: its line is made once too.
    private static let createdStatusLine: [UInt8] = Array("HTTP/1.1 201 Created\r\n".utf8)

    private static let contentLengthPrefix: [UInt8] = Array("Content-Length: ".utf8)

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
        appendBytes(of: name, to: &output)
        output.append(UInt8(ascii: ":"))
        output.append(0x20)
        var value = value
        value.withUTF8 { bytes in
            // A value must not smuggle a line break into the header block.
            var clean = true
            for byte in bytes where byte == 0x0D || byte == 0x0A {
                clean = false
                break
            }
            if clean {
                output.append(contentsOf: bytes)
            } else {
                for byte in bytes where byte != 0x0D && byte != 0x0A {
                    output.append(byte)
                }
            }
        }
        output.append(0x0D)
        output.append(0x0A)
    }

    /// Copies a string's UTF-8 in one go (iterating `String.UTF8View` byte by byte is several times slower).
    private static func appendBytes(of string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { output.append(contentsOf: $0) }
    }
}
