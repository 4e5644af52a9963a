import BmobCrypto
import BmobWire

/// libFuzzer entry point for the native `/8/` protocol's untrusted input: ``Base64``, ``NativeEnvelope``,
/// ``NativeUserAgent`` (the `Accept-Id` header and the `/8/secret` body) and ``NativeRequest`` (every route's
/// body decoding, including ``BatchItem`` and the native find).
///
/// Random bytes almost never decrypt, so the input is also sealed as a plaintext and opened again, which takes
/// it through the JSON parser and the route decoders. Checked with preconditions:
/// - base64 that decodes re-encodes to text that decodes to the same bytes;
/// - sealing then opening gives the plaintext back; anything that opens re-seals and opens to itself;
/// - every rejection carries one of the codes the decoders document, and a message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    checkBase64(input)
    checkEnvelope(input)
    checkUserAgent(input)
    checkRequests(input)
    return 0
}

private let key = NativeEnvelope.key("testsecretkey001")
private let routes = NativeRoute.allCases.map(\.rawValue) + ["secret", "login", ""]
/// Codes ``NativeRequest`` and ``NativeUserAgent`` may answer.
private let requestCodes: Set<Int> = [101, 102, 103, 107, 108, 112, 113, 114, 117, 118, 301, 401, 404, 311, 601]

private func checkBase64(_ input: [UInt8]) {
    guard let decoded = Base64.decode(input) else { return }
    let encoded = Base64.encode(decoded)
    precondition(encoded.count % 4 == 0, "encoded base64 is not padded")
    precondition(Base64.decode(encoded) == decoded, "base64 round trip changed the bytes")
}

private func checkEnvelope(_ input: [UInt8]) {
    let sealed = NativeEnvelope.seal(input, key: key)
    guard let opened = try? NativeEnvelope.open(sealed, key: key) else {
        preconditionFailure("sealed input does not open")
    }
    precondition(opened == input, "seal/open changed the plaintext")
    if let plaintext = try? NativeEnvelope.open(input, key: key) {
        precondition(
            (try? NativeEnvelope.open(NativeEnvelope.seal(plaintext, key: key), key: key)) == plaintext, "re-seal")
    }
    if let members = try? NativeEnvelope.openJSON(sealed, key: key) {
        // What opens as JSON re-encodes to JSON that opens to the same object.
        let again = try? NativeEnvelope.openJSON(NativeEnvelope.seal(JSONValue.object(members), key: key), key: key)
        precondition(
            again.map { sameJSON(.object($0), .object(members)) } == true, "JSON envelope round trip changed the object")
    }
    _ = try? NativeEnvelope.openJSON(input, key: key)
}

/// Equal JSON, where a number may come back as the other kind: the encoder writes integral doubles without a
/// fraction (`17610409E4` → `176104090000`), which parse back as integers.
private func sameJSON(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { sameJSON($0, $1) }
    case (.object(let a), .object(let b)):
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { sameJSON(value, $0) } ?? false }
    default:
        if let x = lhs.doubleValue, let y = rhs.doubleValue { return x == y }
        return lhs == rhs
    }
}

private func checkUserAgent(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    let agent = NativeUserAgent(text) ?? NativeUserAgent("1761040954iOS18.0.0")!
    if let shifted = agent.shifted(by: 1) {
        precondition(shifted.shifted(by: -1) == agent, "User-Agent shift is not reversible")
    }
    for body in [input, NativeEnvelope.seal(input, key: agent.secretRequestKey)] {
        do {
            let appKey = try agent.secretApplicationId(body: body)
            precondition(!appKey.isEmpty, "empty appKey accepted")
        } catch {
            check(error)
        }
    }
    for header in [input, NativeEnvelope.seal(input, key: agent.acceptIdKey)] {
        do {
            let candidates = try agent.applicationIds(acceptId: header)
            precondition(!candidates.isEmpty && candidates.allSatisfy { !$0.isEmpty }, "empty candidates")
        } catch {
            check(error)
        }
    }
}

private func checkRequests(_ input: [UInt8]) {
    let sealed = NativeEnvelope.seal(input, key: key)
    for route in routes {
        for body in [input, sealed] {
            do {
                let request = try NativeRequest.open(route: route, body: body, key: key)
                precondition(request.route.rawValue == route, "decoded for another route")
                checkCall(request.call)
            } catch {
                check(error)
            }
        }
    }
}

private func checkCall(_ call: NativeCall) {
    switch call {
    case .find(let query):
        precondition((0...FindQuery.maximumLimit).contains(query.limit) && query.skip >= 0, "paging out of range")
    case .batch(let items):
        precondition(items.count <= BatchItem.maximumCount, "batch over the limit accepted")
    case .update(_, let objectId, _), .delete(_, let objectId), .get(_, let objectId, _, _):
        precondition(!objectId.isEmpty, "empty objectId accepted")
    case .cloudQuery(let bql, _):
        precondition(!bql.isEmpty, "empty BQL accepted")
    case .logIn(let account, let password):
        precondition(!account.isEmpty && !password.isEmpty, "login without account or password accepted")
    case .checkSession(let objectId), .updatePassword(let objectId, _, _):
        precondition(!objectId.isEmpty, "empty objectId accepted")
    case .planUpload(let filename, let size, _):
        precondition(!filename.isEmpty && size >= 0, "a file plan without a name or with a negative size accepted")
    case .uploadFile(let filename, _, _):
        precondition(!filename.isEmpty, "a file without a name accepted")
    case .registerUpload(let filename, let size, let token):
        precondition(!filename.isEmpty && size >= 0 && !token.isEmpty, "a registration without its parts accepted")
    case .deleteFile(let reference):
        precondition(!reference.isEmpty, "a delete naming no file accepted")
    case .deleteFiles(let references):
        precondition(references.count <= 1000, "a batch delete over the limit accepted")
    case .callFunction(let name, let params):
        precondition(!name.isEmpty && params["_e"] == nil, "a function call without a name, or with it in its params")
    case .history(let className, let objectId, let filter):
        precondition(!className.isEmpty && objectId?.isEmpty != true && filter.objectValue != nil, "a history call without its class or filter")
    case .deleted(let className, let filter):
        precondition(!className.isEmpty && filter.objectValue != nil, "a deleted call without its class or filter")
    case .revert(let className, let objectId, let seq, _):
        precondition(!className.isEmpty && !objectId.isEmpty && seq > 0, "a revert without its object or a positive seq")
    case .restore(let className, let objectId):
        precondition(!className.isEmpty && !objectId.isEmpty, "a restore without its object")
    case .serverInfo:
        break
    case .initialize, .timestamp, .create, .schemas, .signUp, .logOut, .requestSmsCode, .verifySmsCode, .querySms,
        .logInWithSmsCode, .resetPasswordBySmsCode, .requestPasswordReset, .requestEmailVerify:
        break
    }
}

private func check(_ error: BmobRequestError) {
    precondition(requestCodes.contains(error.code.rawValue), "unexpected code \(error.code)")
    precondition(!error.message.isEmpty, "empty message")
}
