/// A message a sync client sends (`sync.md` §1.3): Convex's message names and shapes, with plain JSON values and
/// integer timestamps (§1.10).
///
/// Decoding checks shape and bounds only; the server still checks versions against the socket's state, whether the
/// functions exist, and whether the caller may run them.
package enum SyncClientMessage: Sendable, Hashable {
    /// `Connect`: the first message on every socket.
    case connect(SyncConnect)
    /// `Authenticate`: sets (`user`, `admin`) or clears (`none`) the socket's identity; `baseVersion` is the
    /// client's identity version before it.
    case authenticate(tokenType: SyncTokenType, value: String?, baseVersion: Int64)
    /// `ModifyQuerySet`: adds and removes live queries, moving the query set from `baseVersion` to `newVersion`.
    case modifyQuerySet(baseVersion: Int64, newVersion: Int64, modifications: [SyncQueryModification])
    /// `Mutation`: runs a mutation; answered by a `MutationResponse` with the same `requestId`.
    case mutation(requestId: Int64, path: SyncFunctionPath, arguments: [String: JSONValue])
    /// `Action`: runs an action; answered by an `ActionResponse` with the same `requestId`.
    case action(requestId: Int64, path: SyncFunctionPath, arguments: [String: JSONValue])
    /// `Event`: client telemetry, which the server may ignore.
    case event(eventType: String)

    /// The longest token an `Authenticate` may carry.
    package static let maximumTokenLength = 4096

    /// Decodes a message from its text.
    ///
    /// - Throws: ``SyncProtocolError``.
    package init(decoding bytes: some Collection<UInt8>, limits: SyncLimits = SyncLimits()) throws(SyncProtocolError) {
        let (type, json) = try SyncMembers.envelope(bytes, limits: limits)
        switch type {
        case "Connect":
            self = .connect(try SyncConnect(json: json))
        case "Authenticate":
            guard let tokenType = json["tokenType"]?.stringValue.flatMap(SyncTokenType.init(rawValue:)) else {
                throw SyncProtocolError(.invalidMember, "tokenType must be User, Admin or None")
            }
            let value = try SyncMembers.optionalString("value", in: json)
            if tokenType == .none {
                guard value == nil else { throw SyncProtocolError(.invalidMember, "tokenType None carries no value") }
            } else {
                guard let value, !value.isEmpty, value.utf8.count <= Self.maximumTokenLength else {
                    throw SyncProtocolError(.invalidMember, "value must be a token of 1 to \(Self.maximumTokenLength) characters")
                }
            }
            self = .authenticate(tokenType: tokenType, value: value, baseVersion: try SyncMembers.count("baseVersion", in: json))
        case "ModifyQuerySet":
            let baseVersion = try SyncMembers.count("baseVersion", in: json)
            let newVersion = try SyncMembers.count("newVersion", in: json)
            guard let items = json["modifications"]?.arrayValue else {
                throw SyncProtocolError(.invalidMember, "modifications must be an array")
            }
            guard items.count <= limits.maximumModifications else {
                throw SyncProtocolError(.tooManyItems, "at most \(limits.maximumModifications) query modifications a message")
            }
            var modifications: [SyncQueryModification] = []
            modifications.reserveCapacity(items.count)
            for item in items { modifications.append(try SyncQueryModification(json: item)) }
            self = .modifyQuerySet(baseVersion: baseVersion, newVersion: newVersion, modifications: modifications)
        case "Mutation", "Action":
            let requestId = try SyncMembers.count("requestId", in: json)
            let path = try SyncMembers.path("udfPath", in: json)
            let arguments = try SyncMembers.arguments("args", in: json)
            self = type == "Mutation"
                ? .mutation(requestId: requestId, path: path, arguments: arguments)
                : .action(requestId: requestId, path: path, arguments: arguments)
        case "Event":
            let eventType = try SyncMembers.optionalString("eventType", in: json) ?? ""
            self = .event(eventType: String(eventType.prefix(64)))
        default:
            throw SyncProtocolError(.unknownType, "a client message's type is Connect, Authenticate, ModifyQuerySet, Mutation, Action or Event")
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
        case .connect(let connect):
            var members = connect.members
            members["type"] = "Connect"
            return .object(members)
        case .authenticate(let tokenType, let value, let baseVersion):
            var members: [String: JSONValue] = [
                "type": "Authenticate", "tokenType": .string(tokenType.rawValue), "baseVersion": .int(baseVersion),
            ]
            if let value { members["value"] = .string(value) }
            return .object(members)
        case .modifyQuerySet(let baseVersion, let newVersion, let modifications):
            return [
                "type": "ModifyQuerySet", "baseVersion": .int(baseVersion), "newVersion": .int(newVersion),
                "modifications": .array(modifications.map(\.json)),
            ]
        case .mutation(let requestId, let path, let arguments):
            return ["type": "Mutation", "requestId": .int(requestId), "udfPath": .string(path.rawValue), "args": [.object(arguments)]]
        case .action(let requestId, let path, let arguments):
            return ["type": "Action", "requestId": .int(requestId), "udfPath": .string(path.rawValue), "args": [.object(arguments)]]
        case .event(let eventType):
            return ["type": "Event", "eventType": .string(eventType), "event": .null]
        }
    }

    /// The message's JSON text.
    package var encoded: String { json.jsonString }
}
