/// A message a sync server sends (`sync.md` §1.4), plus `AuthOk`, which confirms the socket's user so that a
/// client's offline cache can be released to that user (§1.10).
package enum SyncServerMessage: Sendable, Hashable {
    /// `Transition`: the changed live queries, moving the client from `start` to `end`.
    case transition(start: SyncStateVersion, end: SyncStateVersion, modifications: [SyncQueryUpdate])
    /// `TransitionChunk`: part `partNumber` (from 0) of `totalParts` of a large transition's JSON text.
    case transitionChunk(chunk: String, partNumber: Int64, totalParts: Int64, transitionId: String)
    /// `MutationResponse`.
    case mutationResponse(SyncFunctionResponse)
    /// `ActionResponse`.
    case actionResponse(SyncFunctionResponse)
    /// `AuthOk`: the token of identity version `baseVersion` checked out as `userId` (`nil`: anonymous).
    case authOk(baseVersion: Int64, userId: String?)
    /// `AuthError`: the token was refused (`authUpdateAttempted`: the one just sent) or stopped checking out; the
    /// server closes the socket after it.
    case authError(error: String, baseVersion: Int64, authUpdateAttempted: Bool)
    /// `FatalError`: the client broke the protocol; the server closes, and the client must not retry unchanged.
    case fatalError(error: String)
    /// `Ping`: liveness only, after 15 s with nothing else to send.
    case ping

    /// Decodes a message from its text.
    ///
    /// - Throws: ``SyncProtocolError``.
    package init(decoding bytes: some Collection<UInt8>, limits: SyncLimits = SyncLimits()) throws(SyncProtocolError) {
        let (type, json) = try SyncMembers.envelope(bytes, limits: limits)
        switch type {
        case "Transition":
            let start = try SyncStateVersion(json: json["startVersion"])
            let end = try SyncStateVersion(json: json["endVersion"])
            guard let items = json["modifications"]?.arrayValue else {
                throw SyncProtocolError(.invalidMember, "modifications must be an array")
            }
            guard items.count <= limits.maximumItems else {
                throw SyncProtocolError(.tooManyItems, "at most \(limits.maximumItems) query modifications a transition")
            }
            var modifications: [SyncQueryUpdate] = []
            modifications.reserveCapacity(items.count)
            for item in items { modifications.append(try SyncQueryUpdate(json: item, limits: limits)) }
            self = .transition(start: start, end: end, modifications: modifications)
        case "TransitionChunk":
            let partNumber = try SyncMembers.count("partNumber", in: json)
            let totalParts = try SyncMembers.count("totalParts", in: json)
            guard partNumber < totalParts else {
                throw SyncProtocolError(.invalidMember, "partNumber must be below totalParts")
            }
            self = .transitionChunk(
                chunk: try SyncMembers.string("chunk", in: json), partNumber: partNumber, totalParts: totalParts,
                transitionId: try SyncMembers.string("transitionId", in: json))
        case "MutationResponse":
            self = .mutationResponse(try SyncFunctionResponse(json: json, limits: limits))
        case "ActionResponse":
            var response = try SyncFunctionResponse(json: json, limits: limits)
            // Actions are not ordered with transitions, so their answer has no commit to wait for.
            if case .success(let value, _) = response.outcome { response.outcome = .success(value: value, ts: nil) }
            self = .actionResponse(response)
        case "AuthOk":
            self = .authOk(
                baseVersion: try SyncMembers.count("baseVersion", in: json),
                userId: try SyncMembers.optionalString("userId", in: json))
        case "AuthError":
            self = .authError(
                error: try SyncMembers.string("error", in: json),
                baseVersion: try SyncMembers.optionalCount("baseVersion", in: json) ?? 0,
                authUpdateAttempted: json["authUpdateAttempted"]?.boolValue ?? false)
        case "FatalError":
            self = .fatalError(error: try SyncMembers.string("error", in: json))
        case "Ping":
            self = .ping
        default:
            throw SyncProtocolError(.unknownType, "unknown server message type")
        }
    }

    /// Decodes a message from its text.
    ///
    /// - Throws: ``SyncProtocolError``.
    package init(decoding text: String, limits: SyncLimits = SyncLimits()) throws(SyncProtocolError) {
        try self.init(decoding: Array(text.utf8), limits: limits)
    }

    /// The message as JSON.
    package var json: JSONValue {
        switch self {
        case .transition(let start, let end, let modifications):
            return [
                "type": "Transition", "startVersion": start.json, "endVersion": end.json,
                "modifications": .array(modifications.map(\.json)),
            ]
        case .transitionChunk(let chunk, let partNumber, let totalParts, let transitionId):
            return [
                "type": "TransitionChunk", "chunk": .string(chunk), "partNumber": .int(partNumber),
                "totalParts": .int(totalParts), "transitionId": .string(transitionId),
            ]
        case .mutationResponse(let response):
            var members = response.members
            members["type"] = "MutationResponse"
            return .object(members)
        case .actionResponse(let response):
            var members = response.members
            members["type"] = "ActionResponse"
            if case .success = response.outcome { members["ts"] = nil }
            return .object(members)
        case .authOk(let baseVersion, let userId):
            return ["type": "AuthOk", "baseVersion": .int(baseVersion), "userId": userId.map(JSONValue.string) ?? .null]
        case .authError(let error, let baseVersion, let authUpdateAttempted):
            return [
                "type": "AuthError", "error": .string(error), "baseVersion": .int(baseVersion),
                "authUpdateAttempted": .bool(authUpdateAttempted),
            ]
        case .fatalError(let error):
            return ["type": "FatalError", "error": .string(error)]
        case .ping:
            return ["type": "Ping"]
        }
    }

    /// The message's JSON text.
    package var encoded: String { json.jsonString }
}
