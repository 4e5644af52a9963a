import BmobStore
package import BmobWire

/// Runs sync functions for a caller: finds the function (registered, else a class's built-in), checks its
/// arguments, and runs it as its kind demands — a query in one read snapshot, recording its read set; a
/// mutation in one write transaction; an action as it is.
///
/// Outcomes are values, never thrown: a function's own ``SyncFunctionError`` reaches the client as it is, a Bmob
/// error with its code in `errorData`, anything else as "<name> failed" with the cause in the log.
package struct SyncFunctionRunner: Sendable {
    /// A query's run: its outcome, what it read (failed runs too: a query refused now may succeed after a
    /// commit), and the journal position of its snapshot.
    package struct QueryRun: Sendable {
        package var outcome: Result<JSONValue, SyncFunctionError>
        package var readSet: SyncReadSet
        package var ts: Int64
    }

    /// A mutation's or action's run: its outcome and, for a mutation, a journal position at or after its commit.
    package struct CallRun: Sendable {
        package var outcome: Result<JSONValue, SyncFunctionError>
        package var ts: Int64?
    }

    let functions: SyncFunctions
    let operations: OperationRunner
    let clock: ServerClock
    let ids: ObjectIdGenerator
    let logger: Logger

    package init(functions: SyncFunctions, operations: OperationRunner, clock: ServerClock, logger: Logger) {
        self.functions = functions
        self.operations = operations
        self.clock = clock
        self.ids = operations.objects.ids
        self.logger = logger
    }

    /// The kind of the function `path` in `app`, or `nil` when there is none: a Swift function, else the app's
    /// webhook, else a class's built-in function.
    package func kind(of path: SyncFunctionPath, in app: App) -> SyncFunctionKind? {
        if let entry = functions[path] { return entry.function.kind }
        if let webhook = app.webhooks.sync[path.rawValue] { return webhook.kind }
        return SyncBuiltins(path)?.kind
    }

    /// Calls the app's webhook for `path`, answering its result.
    private func callWebhook(
        _ webhook: SyncWebhook, _ path: SyncFunctionPath, _ arguments: [String: JSONValue], context: AppContext
    ) async throws -> JSONValue {
        let caller = context.caller ?? .anonymous
        let payload: JSONValue = [
            "function": .string(path.rawValue), "kind": .string(webhook.kind.rawValue), "args": .object(arguments),
            "user": caller.userId.map { ["objectId": .string($0)] } ?? .null, "master": .bool(caller == .master),
        ]
        let answer = try await operations.functions.webhooks.call(
            webhook.url, payload: payload, secret: context.app.webhooks.secret, what: "sync function \(path)")
        if case .value(_, let value) = answer { return value.wholeNumbersAsIntegers }
        return .null
    }

    /// Runs the query `path` for `context`'s caller (resolved).
    package func query(_ path: SyncFunctionPath, _ arguments: [String: JSONValue], context: AppContext) async -> QueryRun {
        let body: SyncFunctions.QueryBody
        if let entry = functions[path] {
            guard case .query(let registered) = entry.function else {
                return QueryRun(outcome: .failure(Self.wrongKind(path, entry.function.kind, .query)), readSet: SyncReadSet(), ts: 0)
            }
            if let problem = entry.arguments.flatMap({ SyncArgument.mismatch(arguments, $0, at: "args") }) {
                return QueryRun(outcome: .failure(Self.invalid(problem)), readSet: SyncReadSet(), ts: 0)
            }
            body = registered
        } else if let webhook = context.app.webhooks.sync[path.rawValue] {
            guard webhook.kind == .query else {
                return QueryRun(outcome: .failure(Self.wrongKind(path, webhook.kind, .query)), readSet: SyncReadSet(), ts: 0)
            }
            // What the webhook reads is what it declares; the journal position is taken before it reads anything.
            var readSet = SyncReadSet()
            for className in webhook.reads { readSet.readClass(className) }
            let ts = context.store.committedJournalSeq
            do {
                let value = try await callWebhook(webhook, path, arguments, context: context)
                return QueryRun(outcome: .success(value), readSet: readSet, ts: ts)
            } catch {
                return QueryRun(outcome: .failure(Self.fault(error, path: path, logger: logger)), readSet: readSet, ts: ts)
            }
        } else if let builtin = SyncBuiltins(path) {
            guard builtin.kind == .query else {
                return QueryRun(outcome: .failure(Self.wrongKind(path, builtin.kind, .query)), readSet: SyncReadSet(), ts: 0)
            }
            if let problem = builtin.mismatch(arguments) {
                return QueryRun(outcome: .failure(Self.invalid(problem)), readSet: SyncReadSet(), ts: 0)
            }
            body = builtin.query
        } else {
            return QueryRun(outcome: .failure(Self.missing(path)), readSet: SyncReadSet(), ts: 0)
        }
        let caller = context.caller ?? .anonymous
        let scope = caller.scope
        let renderer = context.renderer(for: scope)
        let logger = logger
        do {
            return try await context.store.read { transaction in
                let reader = SyncReader(transaction: transaction, scope: scope, renderer: renderer)
                let ts = try transaction.lastJournalSeq()
                let outcome: Result<JSONValue, SyncFunctionError>
                do {
                    outcome = .success(try body(SyncQueryContext(userId: caller.userId, db: reader), arguments))
                } catch let error as SyncFunctionError {
                    outcome = .failure(error)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    logger.error("sync query \(path) failed: \(error)")
                    outcome = .failure(SyncFunctionError("\(path) failed"))
                }
                return QueryRun(outcome: outcome, readSet: reader.readSet, ts: ts)
            }
        } catch {
            return QueryRun(outcome: .failure(Self.fault(error, path: path, logger: logger)), readSet: SyncReadSet(), ts: 0)
        }
    }

    /// Runs the mutation `path` for `context`'s caller (resolved).
    package func mutation(_ path: SyncFunctionPath, _ arguments: [String: JSONValue], context: AppContext) async -> CallRun {
        var context = context
        context.acting = "sync:\(path)"
        let store = context.store
        if let entry = functions[path] {
            guard case .mutation(let body) = entry.function else {
                return CallRun(outcome: .failure(Self.wrongKind(path, entry.function.kind, .mutation)))
            }
            if let problem = entry.arguments.flatMap({ SyncArgument.mismatch(arguments, $0, at: "args") }) {
                return CallRun(outcome: .failure(Self.invalid(problem)))
            }
            let caller = context.caller ?? .anonymous
            let scope = caller.scope
            let renderer = context.renderer(for: scope)
            let now = clock.nowMilliseconds()
            let ids = ids, security = context.app.security
            do {
                let value = try await store.write(caller: context.journalAuthor, rerunnable: true) { transaction in
                    let writer = SyncWriter(
                        transaction: transaction, scope: scope, renderer: renderer, now: now, ids: ids, security: security)
                    return try body(SyncMutationContext(userId: caller.userId, db: writer), arguments)
                }
                return CallRun(outcome: .success(value), ts: store.committedJournalSeq)
            } catch {
                return CallRun(outcome: .failure(Self.fault(error, path: path, logger: logger)))
            }
        }
        if let webhook = context.app.webhooks.sync[path.rawValue] {
            guard webhook.kind == .mutation else {
                return CallRun(outcome: .failure(Self.wrongKind(path, webhook.kind, .mutation)))
            }
            do {
                let value = try await callWebhook(webhook, path, arguments, context: context)
                return CallRun(outcome: .success(value), ts: store.committedJournalSeq)
            } catch {
                return CallRun(outcome: .failure(Self.fault(error, path: path, logger: logger)))
            }
        }
        guard let builtin = SyncBuiltins(path) else { return CallRun(outcome: .failure(Self.missing(path))) }
        guard builtin.kind == .mutation else { return CallRun(outcome: .failure(Self.wrongKind(path, builtin.kind, .mutation))) }
        if let problem = builtin.mismatch(arguments) { return CallRun(outcome: .failure(Self.invalid(problem))) }
        do {
            let value = try await builtin.mutate(arguments, operations: operations, context: context)
            return CallRun(outcome: .success(value), ts: store.committedJournalSeq)
        } catch {
            return CallRun(outcome: .failure(Self.fault(error, path: path, logger: logger)))
        }
    }

    /// Runs the action `path` for `context`'s caller (resolved).
    package func action(_ path: SyncFunctionPath, _ arguments: [String: JSONValue], context: AppContext) async -> CallRun {
        guard let entry = functions[path] else {
            if let webhook = context.app.webhooks.sync[path.rawValue] {
                guard webhook.kind == .action else {
                    return CallRun(outcome: .failure(Self.wrongKind(path, webhook.kind, .action)))
                }
                do {
                    return CallRun(outcome: .success(try await callWebhook(webhook, path, arguments, context: context)))
                } catch {
                    return CallRun(outcome: .failure(Self.fault(error, path: path, logger: logger)))
                }
            }
            if let builtin = SyncBuiltins(path) {
                return CallRun(outcome: .failure(Self.wrongKind(path, builtin.kind, .action)))
            }
            return CallRun(outcome: .failure(Self.missing(path)))
        }
        guard case .action(let body) = entry.function else {
            return CallRun(outcome: .failure(Self.wrongKind(path, entry.function.kind, .action)))
        }
        if let problem = entry.arguments.flatMap({ SyncArgument.mismatch(arguments, $0, at: "args") }) {
            return CallRun(outcome: .failure(Self.invalid(problem)))
        }
        let runner = self
        let actionContext = SyncActionContext(
            userId: context.caller?.userId, data: CloudData(runner: operations, context: context, acting: "sync:\(path)"),
            name: path.rawValue, logger: logger,
            invoke: { kind, name, arguments in
                let path: SyncFunctionPath
                do throws(SyncProtocolError) {
                    path = try SyncFunctionPath(validating: name)
                } catch {
                    throw SyncFunctionError(error.message, data: ["code": 107])
                }
                let outcome = switch kind {
                case .query: await runner.query(path, arguments, context: context).outcome
                case .mutation: await runner.mutation(path, arguments, context: context).outcome
                case .action: await runner.action(path, arguments, context: context).outcome
                }
                return try outcome.get()
            })
        do {
            return CallRun(outcome: .success(try await body(actionContext, arguments)))
        } catch {
            return CallRun(outcome: .failure(Self.fault(error, path: path, logger: logger)))
        }
    }

    // MARK: - Failures

    static func missing(_ path: SyncFunctionPath) -> SyncFunctionError {
        SyncFunctionError("no function named \(path)", data: ["code": .int(Int64(BmobErrorCode.invalidCloudCodeName.rawValue))])
    }

    static func wrongKind(_ path: SyncFunctionPath, _ kind: SyncFunctionKind, _ wanted: SyncFunctionKind) -> SyncFunctionError {
        SyncFunctionError(
            "\(path) is \(kind.withArticle), not \(wanted.withArticle)",
            data: ["code": .int(Int64(BmobErrorCode.invalidCloudCodeName.rawValue))])
    }

    static func invalid(_ problem: String) -> SyncFunctionError {
        SyncFunctionError(problem, data: ["code": 107])
    }

    /// A function's failure as the client sees it.
    static func fault(_ error: any Error, path: SyncFunctionPath, logger: Logger) -> SyncFunctionError {
        switch error {
        case let error as SyncFunctionError:
            return error
        case let error as BmobAPIError:
            return SyncFunctionError(error.message, data: ["code": .int(Int64(error.code.rawValue))])
        case let error as CloudFunctionError:
            return SyncFunctionError(error.message, data: ["code": .int(Int64(error.code))])
        case let error as StoreError:
            let api = BmobAPIError(store: error)
            return SyncFunctionError(api.message, data: ["code": .int(Int64(api.code.rawValue))])
        default:
            logger.error("sync function \(path) failed: \(error)")
            return SyncFunctionError("\(path) failed")
        }
    }
}
