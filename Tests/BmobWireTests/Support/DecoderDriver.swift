import BmobWire
import Testing
import BmobServerCodecs

/// The UTF-8 bytes of `text`.
func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}

/// What an ``HTTPRequestDecoder`` made of a byte stream, independent of how the stream was split:
/// body pieces are joined per request, so two runs over differently cut input compare equal.
struct DecodeResult: Equatable, CustomStringConvertible {
    /// One request as its events described it.
    struct Request: Equatable {
        var head: HTTPRequestHead
        var body: [UInt8] = []
        /// Whether `.end` arrived for this request.
        var ended = false
    }

    var requests: [Request] = []
    /// The failure that stopped decoding, if any.
    var failure: HTTPDecodeError?

    /// The heads in order.
    var heads: [HTTPRequestHead] { requests.map(\.head) }

    var description: String {
        var lines = requests.map { "\($0.head.method) \($0.head.target) body=\($0.body.count) ended=\($0.ended)" }
        if let failure { lines.append("failure \(failure)") }
        return lines.joined(separator: "; ")
    }
}

/// Feeds `pieces` to a fresh decoder one at a time, draining `next()` after each, and collects the events.
///
/// Event order is checked on the way (a body or end needs a head; nothing follows a failure but the same
/// failure). `bodyLimit`, when given, is set with `setBodyLimit` right after every head.
func decode(
    _ pieces: [[UInt8]],
    limits: HTTPRequestDecoder.Limits = HTTPRequestDecoder.Limits(),
    bodyLimit: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> DecodeResult {
    var decoder = HTTPRequestDecoder(limits: limits)
    var result = DecodeResult()
    var inRequest = false
    for piece in pieces {
        decoder.append(piece)
        while let event = decoder.next() {
            switch event {
            case .head(let head):
                if inRequest { Issue.record("head before the previous request ended", sourceLocation: sourceLocation) }
                result.requests.append(DecodeResult.Request(head: head))
                inRequest = true
                if let bodyLimit { decoder.setBodyLimit(bodyLimit) }
            case .body(let piece):
                if !inRequest { Issue.record("body outside a request", sourceLocation: sourceLocation) }
                if piece.isEmpty { Issue.record("empty body piece", sourceLocation: sourceLocation) }
                if !result.requests.isEmpty { result.requests[result.requests.count - 1].body += piece }
            case .end:
                if !inRequest { Issue.record("end outside a request", sourceLocation: sourceLocation) }
                if !result.requests.isEmpty { result.requests[result.requests.count - 1].ended = true }
                inRequest = false
            case .failure(let error):
                result.failure = error
                // The decoder is stuck on the failure from now on, whatever else arrives.
                decoder.append(bytes("GET / HTTP/1.1\r\n\r\n"))
                for _ in 0..<3 where decoder.next() != .failure(error) {
                    Issue.record("decoder did not repeat its failure", sourceLocation: sourceLocation)
                }
                return result
            }
        }
    }
    return result
}

/// Decodes `input` delivered in one piece.
func decode(
    _ input: String,
    limits: HTTPRequestDecoder.Limits = HTTPRequestDecoder.Limits(),
    bodyLimit: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> DecodeResult {
    decode([bytes(input)], limits: limits, bodyLimit: bodyLimit, sourceLocation: sourceLocation)
}

/// Every way to cut `input` in two, including the empty first and last pieces.
func twoPieceSplits(of input: [UInt8]) -> [[[UInt8]]] {
    (0...input.count).map { [Array(input[..<$0]), Array(input[$0...])] }
}

/// `input` one byte at a time.
func byteByByte(_ input: [UInt8]) -> [[UInt8]] {
    input.map { [$0] }
}
