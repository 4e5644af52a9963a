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
/// - every rejection is a ``SyncProtocolError`` with a message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    checkClient(bytes)
    checkServer(bytes)
    checkPath(String(decoding: bytes, as: UTF8.self))
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

private func check(_ error: SyncProtocolError) {
    precondition(!error.message.isEmpty, "rejection without a message")
}
