import BmobWire

/// libFuzzer entry point for sync input from the network: ``SyncClientMessage`` (what a server reads),
/// ``SyncServerMessage`` (what a client reads) and ``SyncFunctionPath``.
///
/// Checked with preconditions:
/// - a decoded message encodes to text that decodes to the same message (decoding is a fixed point: whole numbers
///   are already integers, an action's answer already has no timestamp);
/// - decoding within the default limits accepts nothing the unbounded decoder refuses, and nothing over the size
///   limit;
/// - an accepted function path is canonical: validating it again gives itself;
/// - the input cut into transition chunks joins into exactly what decoding it whole gives, when that is a
///   transition, and is refused otherwise; a decoded transition split into chunks joins back into itself;
/// - every rejection is a ``SyncProtocolError`` with a message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    checkClient(bytes)
    checkServer(bytes)
    checkPath(String(decoding: bytes, as: UTF8.self))
    checkChunks(String(decoding: bytes, as: UTF8.self))
    return 0
}

private func checkClient(_ bytes: UnsafeBufferPointer<UInt8>) {
    let bounded = try? SyncClientMessage(decoding: bytes)
    do {
        let message = try SyncClientMessage(decoding: bytes, limits: .unbounded)
        precondition(bounded == nil || bounded == message, "the limits changed a message")
        guard let again = try? SyncClientMessage(decoding: message.encoded, limits: .unbounded) else {
            preconditionFailure("an encoded client message does not decode")
        }
        precondition(again == message, "a client message changed in a round trip")
    } catch {
        precondition(bounded == nil, "the bounded decoder accepted what the unbounded one refused")
        check(error)
    }
    if let bounded {
        precondition(bytes.count <= SyncLimits().maximumMessageBytes, "an over-size message accepted")
        if case .modifyQuerySet(_, _, let modifications) = bounded {
            precondition(modifications.count <= SyncLimits().maximumModifications, "too many modifications accepted")
        }
    }
}

private func checkServer(_ bytes: UnsafeBufferPointer<UInt8>) {
    do {
        let message = try SyncServerMessage(decoding: bytes, limits: .unbounded)
        guard let again = try? SyncServerMessage(decoding: message.encoded, limits: .unbounded) else {
            preconditionFailure("an encoded server message does not decode")
        }
        precondition(again == message, "a server message changed in a round trip")
    } catch {
        check(error)
    }
}

private func checkPath(_ text: String) {
    do {
        let path = try SyncFunctionPath(validating: text)
        precondition((try? SyncFunctionPath(validating: path.rawValue)) == path, "a canonical path changed")
        precondition(path.module.utf8.count <= SyncFunctionPath.maximumModuleLength, "over-long module accepted")
        precondition(path.export.utf8.count <= SyncFunctionPath.maximumExportLength, "over-long export accepted")
    } catch {
        check(error)
    }
}

private func checkChunks(_ text: String) {
    let whole = try? SyncServerMessage(decoding: text, limits: .unbounded)
    var assembler = SyncTransitionAssembler(limits: .unbounded)
    let pieces = text.isEmpty ? [""] : stride(from: 0, to: text.count, by: 7).map { start -> String in
        let from = text.index(text.startIndex, offsetBy: start)
        return String(text[from..<(text.index(from, offsetBy: 7, limitedBy: text.endIndex) ?? text.endIndex)])
    }
    guard pieces.count <= SyncTransitionChunks.maximumParts else { return }
    do {
        var joined: SyncServerMessage?
        for (index, piece) in pieces.enumerated() {
            joined = try assembler.add(
                chunk: piece, partNumber: Int64(index), totalParts: Int64(pieces.count), transitionId: "f")
        }
        guard case .transition = whole else { preconditionFailure("chunks joined into a transition text does not hold") }
        precondition(joined == whole, "chunks joined into something else than the whole text decodes to")
    } catch {
        if case .transition = whole { preconditionFailure("the chunks of a transition were refused: \(error)") }
        check(error)
    }
    if let whole, case .transition = whole {
        var again = SyncTransitionAssembler(limits: .unbounded)
        var result: SyncServerMessage?
        for chunk in SyncTransitionChunks.split(whole, maximumBytes: 64, transitionId: "s") {
            guard case .transitionChunk(let piece, let part, let total, let id) = chunk else { return }
            result = try? again.add(chunk: piece, partNumber: part, totalParts: total, transitionId: id)
        }
        precondition(result == whole || SyncTransitionChunks.split(whole, maximumBytes: 64, transitionId: "s").count
            > SyncTransitionChunks.maximumParts, "a split transition does not join back")
    }
}

private func check(_ error: SyncProtocolError) {
    precondition(!error.message.isEmpty, "rejection without a message")
}
