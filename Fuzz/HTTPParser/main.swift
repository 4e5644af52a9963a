import BmobWire
import BmobServerCodecs

/// libFuzzer entry point for ``HTTPRequestDecoder``.
///
/// The first three bytes are parameters, the rest is the byte stream:
/// - byte 0 seeds the sizes of the reads the stream is cut into (1 to `byte0 % 64 + 1` bytes each);
/// - byte 1 times 4 is the body limit set with `setBodyLimit` on every head;
/// - byte 2, when odd, selects small limits (`maxHeaderBytes` 32–159 from its other bits, 4 fields, 64-byte
///   bodies) so that the limit paths are reached; when even, the defaults apply.
///
/// Streams of several requests reach the reuse of the previous request's header lines (`HeadTemplate`); the
/// corpus holds one whose requests repeat, change and reorder lines.
///
/// The stream is decoded three times, in one piece, in those reads and one byte at a time, and all three runs
/// must agree. Along the way every event sequence is checked with preconditions:
/// - events come as head, body pieces, end (or a failure), and body pieces are never empty;
/// - a request's body never exceeds its declared `Content-Length` nor the body limit, and equals the
///   declared length at `.end`;
/// - heads are HTTP/1.0 or 1.1, never framed by both `Content-Length` and chunked coding (nor chunked in
///   1.0), with non-empty names and values free of CR, LF and NUL;
/// - failures carry one of the documented statuses, and once failed the decoder repeats that failure;
/// - a head's `Range` field resolved by ``HTTPByteRange/select(_:size:)`` against several sizes gives a range
///   inside the representation (or the whole of it, or unsatisfiable only when a byte was asked for past it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    let parameters = UnsafeBufferPointer(start: data, count: 3)
    let stream = Array(UnsafeBufferPointer(start: data + 3, count: size - 3))
    let bodyLimit = Int(parameters[1]) * 4
    let limits =
        parameters[2] & 1 == 1
        ? HTTPRequestDecoder.Limits(maxHeaderBytes: 32 + Int(parameters[2] >> 1), maxHeaderCount: 4, maxBodyBytes: 64)
        : HTTPRequestDecoder.Limits()

    /// What one run produced, body pieces joined per request so runs over different cuts compare equal.
    struct Outcome: Equatable {
        var heads: [HTTPRequestHead] = []
        var bodies: [[UInt8]] = []
        var ended: [Bool] = []
        var failure: HTTPDecodeError?
    }

    func run(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        var decoder = HTTPRequestDecoder(limits: limits)
        var outcome = Outcome()
        var inRequest = false
        var events = 0
        for piece in pieces {
            decoder.append(Array(piece))
            while let event = decoder.next() {
                events += 1
                precondition(events <= 2 * stream.count + 2, "decoder produced events without consuming bytes")
                switch event {
                case .head(let head):
                    precondition(!inRequest, "head inside a request")
                    precondition(head.version == .http1_0 || head.version == .http1_1, "unsupported version accepted")
                    precondition(!head.method.rawValue.isEmpty && !head.target.isEmpty, "empty method or target")
                    precondition(!(head.isChunked && head.contentLength != nil), "two framings accepted")
                    precondition(!head.isChunked || head.version == .http1_1, "chunked HTTP/1.0 accepted")
                    precondition((head.contentLength ?? 0) >= 0, "negative Content-Length")
                    for field in head.headers {
                        precondition(!field.name.isEmpty, "empty field name")
                        precondition(
                            !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }, "line break in value"
                        )
                    }
                    if let range = head.headers["Range"] {
                        checkRange(range)
                    }
                    inRequest = true
                    outcome.heads.append(head)
                    outcome.bodies.append([])
                    outcome.ended.append(false)
                    decoder.setBodyLimit(bodyLimit)
                case .body(let bytes):
                    precondition(inRequest, "body outside a request")
                    precondition(!bytes.isEmpty, "empty body piece")
                    let last = outcome.heads.count - 1
                    outcome.bodies[last] += bytes
                    let received = outcome.bodies[last].count
                    if let declared = outcome.heads[last].contentLength {
                        precondition(received <= declared, "body longer than its Content-Length")
                    } else {
                        precondition(outcome.heads[last].isChunked, "body without framing")
                    }
                    precondition(received <= bodyLimit, "body over the limit")
                case .end:
                    precondition(inRequest, "end outside a request")
                    let last = outcome.heads.count - 1
                    if let declared = outcome.heads[last].contentLength {
                        precondition(outcome.bodies[last].count == declared, "body shorter than its Content-Length")
                    }
                    outcome.ended[last] = true
                    inRequest = false
                case .failure(let error):
                    precondition([400, 413, 414, 417, 431, 501, 505].contains(error.status.code), "undocumented status")
                    for _ in 0..<3 {
                        decoder.append(Array("GET / HTTP/1.1\r\n\r\n".utf8))
                        precondition(decoder.next() == .failure(error), "failure did not repeat")
                    }
                    outcome.failure = error
                    return outcome
                }
            }
        }
        return outcome
    }

    // Read sizes from a small linear congruential sequence seeded by byte 0.
    let largestRead = Int(parameters[0] % 64) + 1
    var state = UInt32(parameters[0]) &* 2_654_435_761 | 1
    var reads: [ArraySlice<UInt8>] = []
    var offset = 0
    while offset < stream.count {
        state = state &* 1_103_515_245 &+ 12_345
        let end = min(offset + 1 + Int(state >> 16) % largestRead, stream.count)
        reads.append(stream[offset..<end])
        offset = end
    }
    let whole = run([stream[...]])
    precondition(run(reads) == whole, "decoding depends on how the stream is split into reads")
    precondition(run(stream.indices.map { stream[$0...$0] }) == whole, "decoding differs when fed byte by byte")
    return 0
}

/// Checks what a `Range` value selects in representations of a few sizes.
func checkRange(_ value: String) {
    for size in [0, 1, 2, 100, 1 << 40] {
        switch HTTPByteRange.select(value, size: size) {
        case .whole:
            break
        case .range(let range):
            precondition(
                range.first >= 0 && range.first <= range.last && range.last < size, "range outside the representation")
            precondition(range.count == range.last - range.first + 1, "range count")
        case .unsatisfiable:
            precondition(value.contains("-"), "unsatisfiable without a range")
        }
    }
}
