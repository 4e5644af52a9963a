package import BmobWire

/// Decodes HTTP/1.1 requests from a byte stream: a pure state machine, bytes in and events out.
///
/// Feed bytes with ``append(_:)`` as they arrive, then call ``next()`` until it returns `nil` (more bytes
/// needed). Each request yields `.head`, zero or more `.body` pieces, then `.end`; the decoder then starts on
/// the next pipelined request. After `.failure` the stream is unusable: answer with the error's status and
/// close the connection.
///
/// The caller may change the body limit for the current request between `.head` and the following `next()`
/// (per-route limits), and decides itself whether to send `100 Continue` (``HTTPRequestHead/expectsContinue``).
/// Any other expectation fails the request with 417: it is never run, and its body is not read.
package struct HTTPRequestDecoder: Sendable {
    /// Size limits applied while decoding. Exceeding one fails the request with the status named here.
    package struct Limits: Sendable, Equatable {
        /// Request line plus header fields, in bytes (431; a request line alone above it gets 414).
        package var maxHeaderBytes: Int
        /// Number of header fields (431).
        package var maxHeaderCount: Int
        /// Body size unless the caller sets another limit for the request (413).
        package var maxBodyBytes: Int

        package init(maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 128, maxBodyBytes: Int = 10 * 1024 * 1024) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxBodyBytes = maxBodyBytes
        }
    }

    /// What the decoder found in the bytes so far.
    package enum Event: Sendable, Equatable {
        case head(HTTPRequestHead)
        case body([UInt8])
        case end
        case failure(HTTPDecodeError)
    }

    private enum State: Sendable, Equatable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case end
        case failed(HTTPDecodeError)
    }

    /// Longest chunk-size line accepted (size, extensions and line ending).
    private static let maxChunkLineBytes = 4096

    package let limits: Limits
    private var buffer: [UInt8] = []
    /// First unread byte in `buffer`.
    private var start = 0
    /// How far the search for the end of the current head has got, so a split head is not rescanned.
    private var scanned = 0
    private var state = State.head
    private var bodyLimit: Int
    private var bodyReceived = 0
    private var trailerBytes = 0
    /// The previous request's header lines and fields (see ``HeadTemplate``).
    private var template = HeadTemplate()

    package init(limits: Limits = Limits()) {
        self.limits = limits
        self.bodyLimit = limits.maxBodyBytes
    }

    /// Bytes received but not yet decoded.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Whether the decoder is between requests (nothing of a next request decoded yet).
    package var isIdle: Bool { state == .head && scanned == 0 }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: [UInt8]) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Drops consumed bytes: all of them when everything was read (the common case between requests),
    /// otherwise the consumed prefix once it outweighs the rest.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 4096, start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Removes and returns the bytes received beyond the last decoded message: after a protocol upgrade
    /// they belong to the new protocol (a client may send its first frames right behind the request).
    package mutating func takeBufferedBytes() -> [UInt8] {
        let rest = Array(buffer[start...])
        buffer.removeAll()
        start = 0
        scanned = 0
        return rest
    }

    /// Sets the body limit of the request whose head was just returned.
    package mutating func setBodyLimit(_ limit: Int) {
        bodyLimit = limit
    }

    /// The next event, or `nil` when more bytes are needed.
    package mutating func next() -> Event? {
        switch state {
        case .failed(let error):
            return .failure(error)
        case .head:
            return decodeHead()
        case .end:
            state = .head
            bodyLimit = limits.maxBodyBytes
            bodyReceived = 0
            return .end
        case .fixedBody(let remaining):
            if remaining > bodyLimit {
                return fail(.payloadTooLarge, "request body is larger than \(bodyLimit) bytes")
            }
            guard let piece = takeBodyPiece(upTo: remaining) else { return nil }
            state = remaining == piece.count ? .end : .fixedBody(remaining: remaining - piece.count)
            return .body(piece)
        case .chunkSize:
            return decodeChunkSize()
        case .chunkData(let remaining):
            guard let piece = takeBodyPiece(upTo: remaining) else { return nil }
            state = remaining == piece.count ? .chunkDataEnd : .chunkData(remaining: remaining - piece.count)
            return .body(piece)
        case .chunkDataEnd:
            guard let lineEnd = findLineEnd(from: start, limit: 2) else {
                if buffer.count - start >= 2 { return fail(.badRequest, "chunk data not followed by CRLF") }
                return nil
            }
            guard lineEnd.contentEnd == start else { return fail(.badRequest, "chunk data not followed by CRLF") }
            start = lineEnd.next
            state = .chunkSize
            return next()
        case .trailers:
            return decodeTrailers()
        }
    }

    /// Up to `remaining` buffered body bytes, or `nil` when none are buffered.
    private mutating func takeBodyPiece(upTo remaining: Int) -> [UInt8]? {
        let count = min(buffer.count - start, remaining)
        guard count > 0 else { return nil }
        defer { start += count }
        return Array(buffer[start..<start + count])
    }

    private mutating func fail(_ status: HTTPStatus, _ reason: String) -> Event {
        let error = HTTPDecodeError(status, reason)
        state = .failed(error)
        return .failure(error)
    }

    /// A line ending found in the buffer: where the line's content ends and where the next line starts.
    private struct LineEnd {
        var contentEnd: Int
        var next: Int
    }

    /// Finds LF or CRLF starting at `from`, looking at no more than `limit` bytes. A CR not followed by LF
    /// is left for the caller to reject as part of the line content.
    private func findLineEnd(from: Int, limit: Int) -> LineEnd? {
        buffer.withUnsafeBufferPointer { Self.findLineEnd(in: $0, from: from, limit: limit) }
    }

    private static func findLineEnd(in bytes: UnsafeBufferPointer<UInt8>, from: Int, limit: Int) -> LineEnd? {
        let end = min(bytes.count, from + limit)
        var index = from
        while index < end {
            if bytes[index] == 0x0A {
                let contentEnd = index > from && bytes[index - 1] == 0x0D ? index - 1 : index
                return LineEnd(contentEnd: contentEnd, next: index + 1)
            }
            index += 1
        }
        return nil
    }

    // MARK: - Head

    private mutating func decodeHead() -> Event? {
        // RFC 9112 §2.2: ignore empty lines before a request line (some clients send CRLF after a body).
        if scanned == 0 {
            while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A {
                start += 1
            }
        }
        guard start < buffer.count else { return nil }
        guard let headEnd = findHeadEnd() else {
            if buffer.count - start > limits.maxHeaderBytes { return failOversizedHead() }
            return nil
        }
        if headEnd - start > limits.maxHeaderBytes { return failOversizedHead() }
        let result = parseHead(start..<headEnd)
        if case .success(let parsed) = result {
            template.record(lines: buffer[parsed.fieldsStart..<headEnd], fields: parsed.head.headers.fields)
        }
        start = headEnd
        scanned = 0
        switch result {
        case .failure(let error):
            state = .failed(error)
            return .failure(error)
        case .success(let (head, _)):
            bodyLimit = limits.maxBodyBytes
            bodyReceived = 0
            if head.isChunked {
                state = .chunkSize
            } else if let length = head.contentLength, length > 0 {
                state = .fixedBody(remaining: length)
            } else {
                state = .end
            }
            return .head(head)
        }
    }

    /// Fails a head over the size limit: 414 when the request line alone is too long, else 431. Decided on the
    /// first `maxHeaderBytes` bytes only, so the answer is the same however reads split the head.
    private mutating func failOversizedHead() -> Event {
        if findLineEnd(from: start, limit: limits.maxHeaderBytes) == nil {
            return fail(.uriTooLong, "request line is longer than \(limits.maxHeaderBytes) bytes")
        }
        return fail(.requestHeaderFieldsTooLarge, "header block is larger than \(limits.maxHeaderBytes) bytes")
    }

    /// The index just past the empty line that ends the head, or `nil` if it has not arrived.
    private mutating func findHeadEnd() -> Int? {
        var index = start + max(scanned, 0)
        while index < buffer.count {
            if buffer[index] == 0x0A {
                // The head ends at an empty line: LF LF or LF CR LF.
                if index >= start + 1, buffer[index - 1] == 0x0A { return index + 1 }
                if index >= start + 2, buffer[index - 1] == 0x0D, buffer[index - 2] == 0x0A { return index + 1 }
            }
            index += 1
        }
        scanned = buffer.count - start
        return nil
    }

    private func parseHead(_ range: Range<Int>) -> Result<(head: HTTPRequestHead, fieldsStart: Int), HTTPDecodeError> {
        buffer.withUnsafeBufferPointer { bytes in
            template.lines.withUnsafeBufferPointer { templateLines in
                parseHead(in: bytes, range, templateLines: templateLines)
            }
        }
    }

    /// Parses the head over raw bytes: the hot path of every request, so no array bounds or uniqueness checks.
    private func parseHead(
        in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, templateLines: UnsafeBufferPointer<UInt8>
    ) -> Result<(head: HTTPRequestHead, fieldsStart: Int), HTTPDecodeError> {
        guard let requestEnd = Self.findLineEnd(in: bytes, from: range.lowerBound, limit: range.count),
            requestEnd.contentEnd > range.lowerBound
        else {
            return .failure(HTTPDecodeError(.badRequest, "missing request line"))
        }
        var head: HTTPRequestHead
        switch Self.parseRequestLine(bytes, range.lowerBound..<requestEnd.contentEnd) {
        case .success(let parsed): head = parsed
        case .failure(let error): return .failure(error)
        }
        var fields: [HTTPField] = []
        fields.reserveCapacity(8)
        var lineStart = requestEnd.next
        var templateOffset = 0
        while lineStart < range.upperBound, let end = Self.findLineEnd(in: bytes, from: lineStart, limit: range.upperBound - lineStart) {
            if end.contentEnd == lineStart { break }  // the empty line ending the head
            guard fields.count < limits.maxHeaderCount else {
                return .failure(HTTPDecodeError(.requestHeaderFieldsTooLarge, "more than \(limits.maxHeaderCount) header fields"))
            }
            // A line the same as the previous request's line at this position (terminator included) is the
            // same field: take it whole.
            if fields.count < template.fields.count,
                HeadTemplate.sameLine(templateLines, at: &templateOffset, as: bytes, lineStart..<end.next)
            {
                fields.append(template.fields[fields.count])
                lineStart = end.next
                continue
            }
            switch Self.parseField(bytes, lineStart..<end.contentEnd) {
            case .success(let field): fields.append(field)
            case .failure(let error): return .failure(error)
            }
            lineStart = end.next
        }
        head.headers = HTTPHeaders(fields)
        let fieldsStart = requestEnd.next
        return decideFraming(&head).map { (head, fieldsStart) }
    }

    private static func parseRequestLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Result<HTTPRequestHead, HTTPDecodeError> {
        var index = line.lowerBound
        let methodStart = index
        while index < line.upperBound, Self.isTokenByte(bytes[index]) { index += 1 }
        guard index > methodStart, index < line.upperBound, bytes[index] == 0x20 else {
            return .failure(HTTPDecodeError(.badRequest, "malformed request line"))
        }
        let method = Self.knownMethod(bytes[methodStart..<index]) ?? HTTPMethod(rawValue: String(decoding: bytes[methodStart..<index], as: UTF8.self))
        index += 1
        let targetStart = index
        var pathEnd: Int?
        while index < line.upperBound, bytes[index] != 0x20 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?"), pathEnd == nil { pathEnd = index }
            guard byte > 0x20, byte != 0x7F else {
                return .failure(HTTPDecodeError(.badRequest, "invalid character in request target"))
            }
            index += 1
        }
        guard index > targetStart, index < line.upperBound else {
            return .failure(HTTPDecodeError(.badRequest, "malformed request line"))
        }
        let target = String(decoding: bytes[targetStart..<index], as: UTF8.self)
        index += 1
        let versionBytes = bytes[index..<line.upperBound]
        guard versionBytes.count == 8, versionBytes[index] == UInt8(ascii: "H"), versionBytes[index + 1] == UInt8(ascii: "T"),
            versionBytes[index + 2] == UInt8(ascii: "T"), versionBytes[index + 3] == UInt8(ascii: "P"),
            versionBytes[index + 4] == UInt8(ascii: "/"),
            let major = Self.digit(versionBytes[index + 5]), versionBytes[index + 6] == UInt8(ascii: "."),
            let minor = Self.digit(versionBytes[index + 7])
        else {
            return .failure(HTTPDecodeError(.badRequest, "malformed HTTP version"))
        }
        guard major == 1, minor <= 1 else {
            return .failure(HTTPDecodeError(.httpVersionNotSupported, "HTTP/\(major).\(minor) is not supported"))
        }
        guard target.first == "/" || target == "*" || target.contains("://") else {
            return .failure(HTTPDecodeError(.badRequest, "malformed request target"))
        }
        return .success(
            HTTPRequestHead(
                method: method,
                target: target,
                pathLength: (pathEnd ?? index - 1) - targetStart,
                version: HTTPVersion(major: major, minor: minor)
            )
        )
    }

    private func parseField(_ line: Range<Int>) -> Result<HTTPField, HTTPDecodeError> {
        buffer.withUnsafeBufferPointer { Self.parseField($0, line) }
    }

    private static func parseField(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Result<HTTPField, HTTPDecodeError> {
        let first = bytes[line.lowerBound]
        if first == 0x20 || first == 0x09 {
            return .failure(HTTPDecodeError(.badRequest, "obsolete header line folding"))
        }
        var index = line.lowerBound
        while index < line.upperBound, Self.isTokenByte(bytes[index]) { index += 1 }
        guard index > line.lowerBound, index < line.upperBound, bytes[index] == UInt8(ascii: ":") else {
            return .failure(HTTPDecodeError(.badRequest, "malformed header field"))
        }
        let name = Self.interned(bytes, line.lowerBound..<index, among: Self.commonLongNames)
            ?? String(decoding: bytes[line.lowerBound..<index], as: UTF8.self)
        index += 1
        var valueStart = index
        var valueEnd = line.upperBound
        while valueStart < valueEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        for position in valueStart..<valueEnd {
            let byte = bytes[position]
            if byte == 0x0D || byte == 0x00 || (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                return .failure(HTTPDecodeError(.badRequest, "invalid character in header \(name)"))
            }
        }
        let value = Self.interned(bytes, valueStart..<valueEnd, among: Self.commonLongValues)
            ?? String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
        return .success(HTTPField(name: name, value: value))
    }

    /// Header names every Bmob client sends that are too long for a small string: matched byte for byte, they
    /// reuse these constants instead of allocating a string per request (shorter ones never allocate).
    private static let commonLongNames = [
        "X-Bmob-Application-Id", "X-Bmob-REST-API-Key", "X-Bmob-Master-Key", "X-Bmob-Session-Token",
        "Transfer-Encoding", "Sec-WebSocket-Key", "Sec-WebSocket-Version",
    ]

    /// Header values as common and as long: the JSON content types.
    private static let commonLongValues = ["application/json", "application/json; charset=utf-8"]

    /// The constant among `candidates` whose bytes are exactly `bytes[range]`.
    private static func interned(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, among candidates: [String]) -> String? {
        guard range.count > 15 else { return nil }
        for candidate in candidates where candidate.utf8.count == range.count {
            let equal = candidate.utf8.withContiguousStorageIfAvailable {
                ByteComparison.equal($0, UnsafeBufferPointer(rebasing: bytes[range]))
            }
            if equal == true { return candidate }
        }
        return nil
    }

    /// RFC 9112 §6: Transfer-Encoding wins over Content-Length, but a request carrying both is rejected
    /// outright, since the two framings disagreeing is how request smuggling starts.
    private func decideFraming(_ head: inout HTTPRequestHead) -> Result<Void, HTTPDecodeError> {
        // One pass over the fields; the usual request (no Transfer-Encoding, at most one plain Content-Length)
        // is settled without collecting anything.
        var contentLengthCount = 0
        var firstContentLength: String?
        var hasTransferEncoding = false
        for field in head.headers {
            switch field.name.utf8.count {
            case 14 where HTTPHeaders.namesEqual(field.name, "Content-Length"):
                contentLengthCount += 1
                if firstContentLength == nil { firstContentLength = field.value }
            case 17 where HTTPHeaders.namesEqual(field.name, "Transfer-Encoding"):
                hasTransferEncoding = true
            case 6 where HTTPHeaders.namesEqual(field.name, "Expect"):
                // RFC 9110 §10.1.1: `100-continue` is the only expectation defined; the server cannot meet
                // any other, so it refuses the request before anything runs it.
                guard HTTPHeaders.namesEqual(field.value, "100-continue") else {
                    return .failure(HTTPDecodeError(.expectationFailed, "unsupported expectation; only 100-continue is supported"))
                }
            default: break
            }
        }
        if !hasTransferEncoding {
            if contentLengthCount == 0 { return .success(()) }
            if contentLengthCount == 1, let first = firstContentLength, let plain = Self.plainDecimal(first) {
                head.contentLength = plain
                return .success(())
            }
        }
        let transferEncodings = head.headers.values(for: "Transfer-Encoding")
        let contentLengths = head.headers.values(for: "Content-Length")
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else {
                return .failure(HTTPDecodeError(.badRequest, "both Content-Length and Transfer-Encoding"))
            }
            guard head.version == .http1_1 else {
                return .failure(HTTPDecodeError(.badRequest, "Transfer-Encoding in an HTTP/1.0 request"))
            }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }
                .map { $0.trimmingSpaces().lowercased() }
                .filter { !$0.isEmpty }
            guard codings.last == "chunked" else {
                if codings.allSatisfy({ $0 == "chunked" || $0 == "identity" }) {
                    return .failure(HTTPDecodeError(.badRequest, "chunked must be the final transfer coding"))
                }
                return .failure(HTTPDecodeError(.notImplemented, "unsupported transfer coding"))
            }
            guard codings.dropLast().allSatisfy({ $0 == "identity" }) else {
                return .failure(HTTPDecodeError(.notImplemented, "unsupported transfer coding"))
            }
            head.isChunked = true
            return .success(())
        }
        var length: Int?
        for value in contentLengths {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let parsed = Self.plainDecimal(part.trimmingSpaces()) else {
                    return .failure(HTTPDecodeError(.badRequest, "malformed Content-Length"))
                }
                if let length, length != parsed {
                    return .failure(HTTPDecodeError(.badRequest, "conflicting Content-Length values"))
                }
                length = parsed
            }
        }
        head.contentLength = length
        return .success(())
    }

    /// `text` as a number when it is 1 to 18 ASCII digits and nothing else.
    private static func plainDecimal(_ text: String) -> Int? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    // MARK: - Chunked body

    private mutating func decodeChunkSize() -> Event? {
        guard let lineEnd = findLineEnd(from: start, limit: Self.maxChunkLineBytes) else {
            if buffer.count - start >= Self.maxChunkLineBytes {
                return fail(.badRequest, "chunk size line too long")
            }
            return nil
        }
        var index = start
        var size = 0
        var digits = 0
        while index < lineEnd.contentEnd, let value = Self.hexDigit(buffer[index]) {
            guard digits < 15 else { return fail(.badRequest, "chunk size too large") }
            size = size << 4 | value
            digits += 1
            index += 1
        }
        guard digits > 0 else { return fail(.badRequest, "malformed chunk size") }
        // Anything after the size must be whitespace or a chunk extension, which is ignored.
        while index < lineEnd.contentEnd, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
        if index < lineEnd.contentEnd, buffer[index] != UInt8(ascii: ";") {
            return fail(.badRequest, "malformed chunk size")
        }
        for position in index..<lineEnd.contentEnd where buffer[position] == 0x0D || buffer[position] == 0x00 {
            return fail(.badRequest, "invalid character in chunk extension")
        }
        start = lineEnd.next
        if size == 0 {
            state = .trailers
            trailerBytes = 0
            return next()
        }
        guard size <= bodyLimit - bodyReceived else {
            return fail(.payloadTooLarge, "request body is larger than \(bodyLimit) bytes")
        }
        bodyReceived += size
        state = .chunkData(remaining: size)
        return next()
    }

    /// Trailer fields are read and dropped; with the final empty line they must fit the header size limit.
    /// A line is judged on its first `remainingAllowance` bytes, so the outcome does not depend on how reads
    /// split it.
    private mutating func decodeTrailers() -> Event? {
        while true {
            let remainingAllowance = limits.maxHeaderBytes - trailerBytes
            guard let lineEnd = findLineEnd(from: start, limit: max(remainingAllowance, 0)) else {
                if buffer.count - start >= remainingAllowance {
                    return fail(.requestHeaderFieldsTooLarge, "trailer fields are larger than \(limits.maxHeaderBytes) bytes")
                }
                return nil
            }
            let isEmpty = lineEnd.contentEnd == start
            if !isEmpty, case .failure(let error) = parseField(start..<lineEnd.contentEnd) {
                state = .failed(error)
                return .failure(error)
            }
            trailerBytes += lineEnd.next - start
            start = lineEnd.next
            if isEmpty {
                state = .end
                return next()
            }
        }
    }

    // MARK: - Bytes

    /// The common methods without building a string.
    private static func knownMethod(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> HTTPMethod? {
        func matches(_ name: StaticString) -> Bool {
            guard bytes.count == name.utf8CodeUnitCount else { return false }
            let pointer = name.utf8Start
            var offset = 0
            for byte in bytes {
                guard byte == pointer[offset] else { return false }
                offset += 1
            }
            return true
        }
        switch bytes.count {
        case 3:
            if matches("GET") { return .get }
            if matches("PUT") { return .put }
        case 4:
            if matches("POST") { return .post }
            if matches("HEAD") { return .head }
        case 6:
            if matches("DELETE") { return .delete }
        default:
            break
        }
        return nil
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
