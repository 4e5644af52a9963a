import BmobServer
import BmobTesting
import BmobWire
import Foundation

/// A raw sync-protocol client for the door's tests: the WebSocket of `/apps/<app>/api/1/sync`, messages through
/// BmobWire's codec, and the transition chain checked on every `Transition` (each must start where the one
/// before ended).
final class SyncTestClient: @unchecked Sendable {
    // Invariant: used from one task at a time, like the TestWebSocket it wraps.
    let socket: TestWebSocket
    let sessionId: String
    private(set) var version = SyncStateVersion.initial
    private(set) var querySetVersion: Int64 = 0
    private(set) var identityVersion: Int64 = 0
    /// Every server message received, in order (pings left out).
    private(set) var received: [SyncServerMessage] = []
    private var assembler = SyncTransitionAssembler()

    private init(socket: TestWebSocket, sessionId: String) {
        self.socket = socket
        self.sessionId = sessionId
    }

    /// Opens the socket and sends `Connect` (with `sessionId`, a new one by default).
    static func connect(
        port: Int, app: String = TestServer.applicationId, sessionId: String = UUID().uuidString
    ) async throws -> SyncTestClient {
        let socket = try await TestWebSocket.connect(port: port, path: "/apps/\(app)/api/1/sync")
        let client = SyncTestClient(socket: socket, sessionId: sessionId)
        try await client.send(.connect(SyncConnect(sessionId: sessionId, connectionCount: 0, lastCloseReason: "InitialConnect")))
        return client
    }

    static func connect(_ server: TestServer, sessionId: String = UUID().uuidString) async throws -> SyncTestClient {
        try await connect(port: server.port, sessionId: sessionId)
    }

    func send(_ message: SyncClientMessage) async throws {
        try await socket.send(text: message.encoded)
    }

    /// Sets the identity (a session token, or none).
    func authenticate(_ token: String?) async throws {
        try await send(.authenticate(tokenType: token == nil ? .none : .user, value: token, baseVersion: identityVersion))
        identityVersion += 1
    }

    /// Adds and removes live queries.
    func modify(_ modifications: [SyncQueryModification]) async throws {
        try await send(.modifyQuerySet(baseVersion: querySetVersion, newVersion: querySetVersion + 1, modifications: modifications))
        querySetVersion += 1
    }

    /// Subscribes `queryId` to `name` with `args`.
    func subscribe(_ queryId: Int64, _ name: String, _ args: [String: JSONValue] = [:]) async throws {
        try await modify([.add(queryId: queryId, path: try SyncFunctionPath(validating: name), arguments: args, journal: nil)])
    }

    /// Sends a mutation.
    func mutation(_ requestId: Int64, _ name: String, _ args: [String: JSONValue] = [:]) async throws {
        try await send(.mutation(requestId: requestId, path: try SyncFunctionPath(validating: name), arguments: args))
    }

    /// Sends an action.
    func action(_ requestId: Int64, _ name: String, _ args: [String: JSONValue] = [:]) async throws {
        try await send(.action(requestId: requestId, path: try SyncFunctionPath(validating: name), arguments: args))
    }

    /// The next server message (pings skipped, chunks joined); fails when the socket closed. A transition that
    /// does not start where the last one ended fails the test.
    func next() async throws -> SyncServerMessage {
        while true {
            guard let text = try await socket.nextText() else { throw TestFailure("the server closed the socket") }
            var message = try SyncServerMessage(decoding: text)
            if case .ping = message { continue }
            if case .transitionChunk(let chunk, let part, let total, let id) = message {
                guard let joined = try assembler.add(chunk: chunk, partNumber: part, totalParts: total, transitionId: id)
                else { continue }
                message = joined
            }
            if case .transition(let start, let end, _) = message {
                guard start == version else { throw TestFailure("transition starts at \(start), not at \(version)") }
                guard end.ts >= start.ts else { throw TestFailure("transition goes back in time: \(start) → \(end)") }
                version = end
            }
            received.append(message)
            return message
        }
    }

    /// The next message that `match` accepts, skipping others (kept in ``received``).
    func next<T>(_ what: String, _ match: (SyncServerMessage) -> T?) async throws -> T {
        for _ in 0..<3000 {
            if let found = match(try await next()) { return found }
        }
        throw TestFailure("no \(what) among 3000 messages")
    }

    /// The next result of `queryId` (updated or failed), skipping other messages.
    func nextResult(_ queryId: Int64) async throws -> Result<JSONValue, SyncFunctionError> {
        try await next("result of query \(queryId)") { message in
            guard case .transition(_, _, let modifications) = message else { return nil }
            for modification in modifications where modification.queryId == queryId {
                switch modification {
                case .updated(_, let value, _, _): return .success(value)
                case .failed(_, let message, let data, _, _): return .failure(SyncFunctionError(message, data: data))
                case .removed: return nil
                }
            }
            return nil
        }
    }

    /// The value of the next successful result of `queryId`.
    func nextValue(_ queryId: Int64) async throws -> JSONValue {
        switch try await nextResult(queryId) {
        case .success(let value): return value
        case .failure(let error): throw TestFailure("query \(queryId) failed: \(error.message)")
        }
    }

    /// The next `MutationResponse` for `requestId`.
    func mutationResponse(_ requestId: Int64) async throws -> SyncFunctionResponse {
        try await next("MutationResponse \(requestId)") { message in
            if case .mutationResponse(let response) = message, response.requestId == requestId { return response }
            return nil
        }
    }

    /// The next `ActionResponse` for `requestId`.
    func actionResponse(_ requestId: Int64) async throws -> SyncFunctionResponse {
        try await next("ActionResponse \(requestId)") { message in
            if case .actionResponse(let response) = message, response.requestId == requestId { return response }
            return nil
        }
    }

    /// The next transition whose end `ts` is at least `ts`.
    func transition(reaching ts: Int64) async throws -> [SyncQueryUpdate] {
        if version.ts >= ts { return [] }
        return try await next("transition reaching \(ts)") { message in
            if case .transition(_, let end, let modifications) = message, end.ts >= ts { return modifications }
            return nil
        }
    }

    func close() async {
        try? await socket.send(WebSocketFrame(opcode: .close, payload: []))
    }
}

extension SyncFunctionResponse {
    /// The result of a success; fails the test otherwise.
    var value: JSONValue {
        get throws {
            guard case .success(let value, _) = outcome else { throw TestFailure("the call failed: \(outcome)") }
            return value
        }
    }

    /// The `ts` of a success.
    var ts: Int64? {
        if case .success(_, let ts) = outcome { ts } else { nil }
    }

    /// The message of a failure.
    var failure: String? {
        if case .failure(let message, _) = outcome { message } else { nil }
    }
}
