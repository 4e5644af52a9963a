import BmobHTTP
import BmobIO
import BmobWire

/// The sync protocol's door (`sync.md`), for `OnebaseClient`s: an app's base URL is
/// `<server>/apps/<applicationId>`, under which
/// - `GET  api/<version>/sync` upgrades to the sync WebSocket (``SyncSession``);
/// - `POST api/query`, `api/mutation`, `api/action` run one function over HTTP (`{"path","args"}`, identity from
///   `Authorization: Bearer <session token>`) → `{"status":"success","value"}` or, with HTTP 400,
///   `{"status":"error","errorMessage","errorData","code","error"}`;
/// - `POST api/auth/password` signs in, signs up or verifies an email (``SyncPasswordAuth``) →
///   `{"token","userId"}` or `{"token":null,"started":true}`; `POST api/auth/signOut` ends the bearer's session.
///
/// The app id in the path is the only key: a sync client is as public as a Bmob client with the REST key, and
/// every function runs with its caller's ACLs and class permissions.
package final class SyncGateway: Sendable {
    let runner: SyncFunctionRunner
    let ledger = SyncRequestLedger()
    private let operations: OperationRunner
    private let passwords: SyncPasswordAuth
    private let feeds: RealtimeFeeds
    private let apps: AppDirectory
    private let engines = LockedValue([String: SyncLiveQueries]())
    private let webSocket: WebSocketConfiguration

    package init(
        functions: SyncFunctions, operations: OperationRunner, feeds: RealtimeFeeds, apps: AppDirectory,
        configuration: ServerConfiguration, clock: ServerClock, logger: Logger
    ) {
        self.runner = SyncFunctionRunner(functions: functions, operations: operations, clock: clock, logger: logger)
        self.operations = operations
        self.passwords = SyncPasswordAuth(operations: operations, clock: clock, logger: logger)
        self.feeds = feeds
        self.apps = apps
        // Clients answer the WebSocket's pings; a transition may be large (it goes out in chunks of 256 KiB).
        self.webSocket = WebSocketConfiguration(
            maximumMessageSize: SyncLimits().maximumMessageBytes,
            maximumQueuedBytes: max(configuration.realtimeMaxQueuedBytes, 4 << 20),
            pingInterval: .seconds(configuration.realtimeTimeoutSeconds),
            pongTimeout: .seconds(configuration.realtimeTimeoutSeconds))
    }

    /// Adds the door's routes.
    package func register(in router: inout BmobRouter) {
        router.open(.get, "/apps/:id/api/:version/sync") { [self] request in try await upgrade(request) }
        for kind in [SyncFunctionKind.query, .mutation, .action] {
            router.open(.post, "/apps/:id/api/\(kind.rawValue)") { [self] request in try await call(kind, request) }
        }
        router.open(.post, "/apps/:id/api/auth/password") { [self] request in try await password(request) }
        router.open(.post, "/apps/:id/api/auth/signOut") { [self] request in try await signOut(request) }
    }

    // MARK: - WebSocket

    private func upgrade(_ request: BmobRequest) async throws -> HTTPResponse {
        let runtime = try await runtime(request)
        let version = request.parameter("version")
        guard (1...32).contains(version.utf8.count),
            version.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) })
        else {
            throw BmobAPIError(.invalidJSON, "the client version in the path is 1 to 32 letters, digits, dots or dashes")
        }
        guard let engine = engine(for: runtime) else {
            throw BmobAPIError(.unavailable, "the server is shutting down", status: .serviceUnavailable)
        }
        do {
            return try HTTPResponse.webSocket(accepting: request.http.head, configuration: webSocket) { [self] in
                SyncSession(gateway: self, runtime: runtime, engine: engine)
            }
        } catch {
            return BmobAPIError.refusedUpgrade(error)
        }
    }

    /// The app's live-query engine, made on first use; `nil` once the feeds stopped.
    private func engine(for runtime: AppRuntime) -> SyncLiveQueries? {
        let id = runtime.app.applicationId
        if let engine = engines.withLock({ $0[id] }) { return engine }
        guard let feed = feeds.feed(for: runtime) else { return nil }
        return engines.withLock { engines in
            if let engine = engines[id] { return engine }
            let engine = SyncLiveQueries(runtime: runtime, feed: feed, runner: runner, callers: operations.callers)
            engines[id] = engine
            return engine
        }
    }

    private func runtime(_ request: BmobRequest) async throws -> AppRuntime {
        let id = request.parameter("id")
        guard id.utf8.count <= 64, let runtime = await apps.runtime(id: id) else {
            throw BmobAPIError(.unauthorized, "no app \(id.prefix(64)) on this server", status: .notFound)
        }
        return runtime
    }

    // MARK: - Running functions

    /// The caller `identity` stands for in `runtime`'s app.
    private func context(_ identity: SyncIdentity, in runtime: AppRuntime) async -> AppContext? {
        let context = AppContext(
            runtime: runtime, isMaster: identity.kind == .master, sessionToken: identity.token, frontDoor: .sync)
        return try? await operations.callers.resolving(context)
    }

    /// The user a token identity is, or `nil` when its token does not check out.
    func userId(of identity: SyncIdentity, in runtime: AppRuntime) async -> String? {
        await context(identity, in: runtime)?.caller?.userId
    }

    /// Runs a mutation as `identity`, checking it first; the second value is why the identity no longer holds.
    func mutate(
        _ path: SyncFunctionPath, _ arguments: [String: JSONValue], identity: SyncIdentity, in runtime: AppRuntime
    ) async -> (SyncFunctionRunner.CallRun, refusal: String?) {
        guard let context = await context(identity, in: runtime) else {
            return (.init(outcome: .failure(SyncFunctionError("the server could not check the session; try again"))), nil)
        }
        if case .user = identity.kind, context.caller?.userId == nil {
            let refusal = "the token is unknown or expired"
            return (.init(outcome: .failure(SyncFunctionError(refusal, data: ["code": 206]))), refusal)
        }
        return (await runner.mutation(path, arguments, context: context), nil)
    }

    /// Runs a mutation once per ledger session (app and client session id) and request id (``SyncRequestLedger``);
    /// answers its response and, when the identity no longer holds, why.
    func mutateOnce(
        _ requestId: Int64, _ path: SyncFunctionPath, _ arguments: [String: JSONValue], ledgerSession: String,
        identity: SyncIdentity, in runtime: AppRuntime
    ) async -> (SyncFunctionResponse, String?) {
        switch ledger.begin(session: ledgerSession, requestId: requestId) {
        case .done(let earlier):
            return (earlier, nil)
        case .running:
            let refusal = SyncFunctionResponse.Outcome.failure(message: "this request is already running", errorData: nil)
            return (SyncFunctionResponse(requestId: requestId, outcome: refusal), nil)
        case .new:
            let (run, refusal) = await mutate(path, arguments, identity: identity, in: runtime)
            let response = SyncFunctionResponse(requestId: requestId, outcome: .init(run))
            ledger.finish(session: ledgerSession, requestId: requestId, response)
            return (response, refusal)
        }
    }

    /// Runs an action as `identity`.
    func act(
        _ path: SyncFunctionPath, _ arguments: [String: JSONValue], identity: SyncIdentity, in runtime: AppRuntime
    ) async -> SyncFunctionRunner.CallRun {
        guard let context = await context(identity, in: runtime) else {
            return .init(outcome: .failure(SyncFunctionError("the server could not check the session; try again")))
        }
        return await runner.action(path, arguments, context: context)
    }

    // MARK: - HTTP

    private func identity(of request: BmobRequest) -> SyncIdentity {
        guard let header = request.http.headers["Authorization"], header.hasPrefix("Bearer ") else { return .anonymous }
        let token = String(header.dropFirst("Bearer ".count))
        return token.isEmpty ? .anonymous : .user(token: token)
    }

    private func call(_ kind: SyncFunctionKind, _ request: BmobRequest) async throws -> HTTPResponse {
        let runtime = try await runtime(request)
        let body = try request.jsonObjectBody()
        guard let name = body["path"]?.stringValue else { throw BmobAPIError(.missingParameter, "path is required") }
        let path: SyncFunctionPath
        do throws(SyncProtocolError) {
            path = try SyncFunctionPath(validating: name)
        } catch {
            throw BmobAPIError(.invalidJSON, error.message)
        }
        let arguments: [String: JSONValue]
        switch body["args"] {
        case nil, .null?: arguments = [:]
        case .object(let members)?: arguments = members
        case .array(let elements)? where elements.count == 1 && elements[0].objectValue != nil: arguments = elements[0].objectValue ?? [:]
        default: throw BmobAPIError(.invalidJSON, "args must be an object (or an array holding one)")
        }
        let identity = identity(of: request)
        guard let context = await context(identity, in: runtime) else {
            throw BmobAPIError(.internalError, "the server could not check the session", status: .internalServerError)
        }
        if case .user = identity.kind, context.caller?.userId == nil {
            throw BmobAPIError(.sessionRequired, "the token is unknown or expired", status: .unauthorized)
        }
        let outcome: Result<JSONValue, SyncFunctionError> = switch kind {
        case .query: await runner.query(path, wholeNumbers(arguments), context: context).outcome
        case .mutation: await runner.mutation(path, wholeNumbers(arguments), context: context).outcome
        case .action: await runner.action(path, wholeNumbers(arguments), context: context).outcome
        }
        switch outcome {
        case .success(let value):
            return .json(["status": "success", "value": value, "logLines": []])
        case .failure(let error):
            var members: [String: JSONValue] = [
                "status": "error", "errorMessage": .string(error.message), "error": .string(error.message),
                "code": error.data?["code"] ?? .int(Int64(BmobErrorCode.cloudCodeError.rawValue)),
            ]
            if let data = error.data { members["errorData"] = data }
            return .json(.object(members), status: .badRequest)
        }
    }

    private func password(_ request: BmobRequest) async throws -> HTTPResponse {
        let runtime = try await runtime(request)
        let body = try request.jsonObjectBody()
        let context = AppContext(
            runtime: runtime, isMaster: false, sessionToken: nil, frontDoor: .sync,
            clientAddress: request.http.remoteAddress)
        switch try await passwords.run(body, context: try await operations.callers.resolving(context)) {
        case .signedIn(let token, let userId):
            return .json(["token": .string(token), "userId": .string(userId)])
        case .codeSent:
            return .json(["token": .null, "started": true])
        }
    }

    private func signOut(_ request: BmobRequest) async throws -> HTTPResponse {
        let runtime = try await runtime(request)
        let identity = identity(of: request)
        if let token = identity.token {
            let context = AppContext(runtime: runtime, isMaster: false, sessionToken: token, frontDoor: .sync)
            try await operations.users.endSession(token: token, context: context)
        }
        return .json([:])
    }
}

extension SyncFunctionResponse.Outcome {
    /// A run's outcome as the wire carries it.
    init(_ run: SyncFunctionRunner.CallRun) {
        switch run.outcome {
        case .success(let value): self = .success(value: value, ts: run.ts)
        case .failure(let error): self = .failure(message: error.message, errorData: error.data)
        }
    }
}

/// Arguments with whole numbers as integers, as the socket's decoder reads them (`2.0` is `2`).
private func wholeNumbers(_ arguments: [String: JSONValue]) -> [String: JSONValue] {
    arguments.mapValues(\.wholeNumbersAsIntegers)
}
