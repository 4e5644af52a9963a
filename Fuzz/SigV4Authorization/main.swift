import BmobCrypto
import BmobWire

/// libFuzzer entry point for SigV4, which `bmob serve`'s `/s3` endpoint checks on every request:
/// ``SigV4Authorization`` (the untrusted `Authorization` header), ``SigV4Verifier`` and ``SigV4Canonical``.
///
/// Checked with preconditions:
/// - a header that parses is within the bounds and prints to a header that parses to the same value;
/// - a rejection over ``SigV4Authorization/maximumLength`` bytes is `tooLong`, and every rejection has a message;
/// - verifying arbitrary requests never crashes;
/// - canonical paths and queries of received text are fixed points, and `x-amz-date` text round-trips;
/// - what ``SigV4Signer`` signs (method, path, query, headers and secret from the input) verifies, and fails
///   with `signatureMismatch` once the method or the secret changes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let pieces = input.split(separator: 0, maxSplits: 6, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    func piece(_ index: Int) -> String { index < pieces.count ? pieces[index] : "" }

    checkParse(String(decoding: input, as: UTF8.self), input.count, pieces: pieces)
    checkCanonical(piece(0), piece(1), piece(2))
    checkSignAndVerify(input, piece)
    return 0
}

private func checkParse(_ text: String, _ byteCount: Int, pieces: [String]) {
    let authorization: SigV4Authorization
    do {
        authorization = try SigV4Authorization(parsing: text)
    } catch {
        precondition(!error.description.isEmpty, "empty description")
        if text.utf8.count > SigV4Authorization.maximumLength { precondition(error == .tooLong, "long header not tooLong") }
        return
    }
    precondition(text.utf8.count <= SigV4Authorization.maximumLength, "long header accepted")
    precondition((1...SigV4Authorization.maximumAccessKeyIdLength).contains(authorization.accessKeyId.utf8.count), "key id")
    precondition((1...SigV4Authorization.maximumSignedHeaders).contains(authorization.signedHeaders.count), "headers")
    precondition(authorization.signature.count == 32, "signature length")
    precondition(SigV4Canonical.isScopeDate(authorization.date), "scope date")
    precondition((try? SigV4Authorization(parsing: authorization.description)) == authorization, "print/parse changed it")

    // Verification of whatever request the pieces describe must end in a result or a typed error.
    let headers: [(name: String, value: String)] = authorization.signedHeaders.enumerated().map {
        ($0.element, $0.offset < pieces.count ? pieces[$0.offset] : "")
    }
    _ = try? SigV4Verifier.verify(
        authorization, method: pieces.first ?? "", path: pieces.last ?? "", query: text, headers: headers,
        secretAccessKey: "secret", region: authorization.region, service: authorization.service)
}

private func checkCanonical(_ path: String, _ query: String, _ date: String) {
    let uri = SigV4Canonical.canonicalURI(receivedPath: path)
    precondition(SigV4Canonical.canonicalURI(receivedPath: uri) == uri, "canonical URI is not a fixed point")
    let canonicalQuery = SigV4Canonical.canonicalQuery(received: query)
    precondition(SigV4Canonical.canonicalQuery(received: canonicalQuery) == canonicalQuery, "canonical query moved")
    if let seconds = SigV4Canonical.secondsSince1970(amzDate: date) {
        precondition(SigV4Canonical.amzDate(secondsSince1970: seconds) == date, "x-amz-date round trip")
    }
    let value = SigV4Canonical.canonicalHeaderValue(query)
    precondition(SigV4Canonical.canonicalHeaderValue(value) == value, "header value moved")
}

private func checkSignAndVerify(_ input: [UInt8], _ piece: (Int) -> String) {
    var seconds: Int64 = 0
    for byte in input.prefix(8) { seconds = seconds << 8 | Int64(byte) }
    let signer = SigV4Signer(
        credentials: SigV4Credentials(
            accessKeyId: "AKIDFUZZ", secretAccessKey: piece(0), sessionToken: piece(5).isEmpty ? nil : piece(5)),
        region: "us-east-1")
    let request = SigV4Request(
        method: piece(1).isEmpty ? "PUT" : piece(1), unencodedPath: piece(2),
        query: [(piece(3), piece(4)), ("uploadId", piece(6)), (piece(4), "")],
        headers: [("Host", piece(6)), ("X-Amz-Meta-Fuzz", piece(3))],
        payloadHash: SHA256.hex(input))
    let added = signer.sign(request, secondsSince1970: seconds)
    guard let value = added.first(where: { $0.name == "Authorization" })?.value,
        let authorization = try? SigV4Authorization(parsing: value)
    else { preconditionFailure("signed Authorization does not parse") }

    func verify(method: String, secret: String) throws(SigV4VerificationError) -> SigV4VerifiedRequest {
        try SigV4Verifier.verify(
            authorization, method: method, path: request.path, query: request.queryString,
            headers: request.headers + added, secretAccessKey: secret, region: "us-east-1")
    }
    do {
        let verified = try verify(method: request.method, secret: piece(0))
        precondition(verified.accessKeyId == "AKIDFUZZ", "key id")
        precondition(verified.payloadSHA256 == SHA256.hash(input), "payload hash")
    } catch {
        preconditionFailure("signed request does not verify: \(error)")
    }
    do {
        _ = try verify(method: request.method + "X", secret: piece(0))
        preconditionFailure("changed method verified")
    } catch {
        precondition(error == .signatureMismatch, "changed method: \(error)")
    }
    do {
        _ = try verify(method: request.method, secret: piece(0) + "x")
        preconditionFailure("changed secret verified")
    } catch {
        precondition(error == .signatureMismatch, "changed secret: \(error)")
    }
}
