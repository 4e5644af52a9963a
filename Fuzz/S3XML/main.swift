import BmobWire

/// libFuzzer entry point for S3's XML bodies, which `bmob serve`'s `/s3` endpoint reads from clients and the
/// SDK's uploader reads from S3: ``S3XMLReader``, ``S3XMLWriter`` and the multipart messages.
///
/// Checked with preconditions:
/// - a document that parses stays within the reader's bounds, and written out reads back as the same tree;
/// - a message that decodes is valid (part numbers, order, counts) and re-encodes to a document that decodes
///   to the same message;
/// - messages built from arbitrary text encode and decode to that text, less what XML cannot carry;
/// - every rejection carries a code of its stage (syntax or message), a message, and an offset inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    checkDocument(input)
    checkBuiltMessages(input)
    return 0
}

/// Codes the reader may answer.
private let syntaxCodes: Set<S3XMLError.Code> = [
    .tooLarge, .tooDeep, .tooManyElements, .doctypeNotAllowed, .invalidUTF8, .invalidCharacter, .invalidEntity,
    .malformed, .mismatchedTag,
]
/// Codes the message decoders may answer.
private let messageCodes: Set<S3XMLError.Code> = [
    .unexpectedRoot, .missingElement, .invalidValue, .invalidPartOrder, .tooManyParts,
]

private func checkDocument(_ input: [UInt8]) {
    let tree: S3XMLElement
    do {
        tree = try S3XMLReader.parse(input)
    } catch {
        precondition(syntaxCodes.contains(error.code), "unexpected reader code \(error.code)")
        precondition(!error.message.isEmpty, "empty message")
        if let offset = error.offset { precondition((0...input.count).contains(offset), "offset outside the input") }
        return
    }
    var count = 0
    precondition(depth(tree, counting: &count) <= S3XMLReader.maximumDepth, "tree deeper than the bound")
    precondition(count <= S3XMLReader.maximumElements, "more elements than the bound")

    let written = S3XMLWriter.document(tree)
    // Escaping can lengthen a document; past the size bound a re-read fails by design.
    if written.utf8.count <= S3XMLReader.maximumBytes {
        precondition((try? S3XMLReader.parse(written)) == tree, "written tree reads back differently")
    }

    check(tree, S3InitiateMultipartUploadResult.init(element:), \.element) { _ in }
    check(tree, S3CompleteMultipartUploadResult.init(element:), \.element) { _ in }
    check(tree, S3ErrorResponse.init(element:), \.element) { _ in }
    check(tree, S3ListPartsResult.init(element:), \.element) { result in
        precondition(result.parts.count <= S3CompleteMultipartUpload.maximumParts, "too many parts")
        for part in result.parts {
            precondition((1...S3CompleteMultipartUpload.maximumParts).contains(part.partNumber), "part number")
            precondition(part.size >= 0, "negative size")
        }
        if let marker = result.nextPartNumberMarker {
            precondition((0...S3CompleteMultipartUpload.maximumParts).contains(marker), "marker out of range")
        }
    }
    check(tree, S3CompleteMultipartUpload.init(element:), \.element) { request in
        precondition((1...S3CompleteMultipartUpload.maximumParts).contains(request.parts.count), "part count")
        var previous = 0
        for part in request.parts {
            precondition(part.partNumber > previous && part.partNumber <= S3CompleteMultipartUpload.maximumParts, "order")
            previous = part.partNumber
        }
    }
}

/// Decodes `tree` as a message; what decodes is validated and must survive encoding, writing and reading.
private func check<Message: Hashable>(
    _ tree: S3XMLElement, _ decode: (S3XMLElement) throws(S3XMLError) -> Message,
    _ encode: (Message) -> S3XMLElement, validate: (Message) -> Void
) {
    let message: Message
    do {
        message = try decode(tree)
    } catch {
        precondition(messageCodes.contains(error.code), "unexpected message code \(error.code)")
        precondition(!error.message.isEmpty, "empty message")
        return
    }
    validate(message)
    let again = try? decode(S3XMLReader.parse(S3XMLWriter.document(encode(message))))
    precondition(again == message, "message round trip changed \(Message.self)")
}

private func depth(_ element: S3XMLElement, counting count: inout Int) -> Int {
    count += 1
    var deepest = 0
    for child in element.children {
        deepest = max(deepest, depth(child, counting: &count))
    }
    return deepest + 1
}

/// Messages whose fields are pieces of the input: what XML can carry comes back exactly.
private func checkBuiltMessages(_ input: [UInt8]) {
    let pieces = input.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    func piece(_ index: Int) -> String { index < pieces.count ? pieces[index] : "" }
    func same(_ decoded: String?, _ original: String) -> Bool { decoded == S3XMLWriter.representable(original) }

    let error = S3ErrorResponse(code: piece(0), message: piece(1), resource: piece(2), requestId: piece(3))
    let decodedError = try? S3ErrorResponse(xml: Array(error.xml.utf8))
    precondition(
        same(decodedError?.code, piece(0)) && same(decodedError?.message, piece(1))
            && same(decodedError?.resource, piece(2)) && same(decodedError?.requestId, piece(3)),
        "error fields changed")

    let initiate = S3InitiateMultipartUploadResult(bucket: piece(1), key: piece(2), uploadId: piece(3))
    let decodedInitiate = try? S3InitiateMultipartUploadResult(xml: Array(initiate.xml.utf8))
    precondition(
        same(decodedInitiate?.bucket, piece(1)) && same(decodedInitiate?.key, piece(2))
            && same(decodedInitiate?.uploadId, piece(3)), "initiate fields changed")

    // Part numbers from the bytes, made ascending; ETags from the pieces, short so that runs stay fast.
    var number = 0
    var parts: [S3CompleteMultipartUpload.Part] = []
    for (index, byte) in input.prefix(16).enumerated() {
        number += Int(byte) * 39 + 1
        guard number <= S3CompleteMultipartUpload.maximumParts else { break }
        parts.append(.init(partNumber: number, etag: S3XMLWriter.representable(String(piece(index % 5).prefix(48)))))
    }
    if !parts.isEmpty {
        let request = S3CompleteMultipartUpload(parts: parts)
        precondition((try? S3CompleteMultipartUpload(xml: Array(request.xml.utf8))) == request, "completion changed")
        let list = S3ListPartsResult(
            bucket: "b", key: S3XMLWriter.representable(piece(4)), uploadId: "u",
            parts: parts.map { .init(partNumber: $0.partNumber, etag: $0.etag, size: Int64($0.partNumber) << 40) },
            isTruncated: input.count % 2 == 0, nextPartNumberMarker: parts.last?.partNumber)
        precondition((try? S3ListPartsResult(xml: Array(list.xml.utf8))) == list, "part list changed")
    }
}
