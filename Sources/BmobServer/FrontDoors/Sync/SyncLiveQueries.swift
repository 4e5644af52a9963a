import BmobIO
import BmobWire

/// One app's live queries: runs each distinct query (function, arguments, identity) once for all the sockets
/// subscribed to it, re-runs exactly those whose read set a commit touched, and hands the sockets their new
/// results.
///
/// Rules:
/// 1. Commits come from the app's journal feed (``RealtimeJournalFeed``), so writes of every door and, on
///    PostgreSQL, of every node re-run the queries they touch; the engine has interest in the feed while it has
///    live queries.
/// 2. Runs never overlap (``SyncSerialQueue``): a first run for a new subscription and the re-runs for a batch of
///    commits are queued in order, so a socket never receives an older result after a newer one.
/// 3. A key's result carries a version that grows when its outcome changes; sockets forward only newer versions,
///    so an unchanged result is never sent twice.
/// 4. After each batch every subscribed socket is told the batch's journal position, changed results or not, so
///    that a client waiting for its mutation's `ts` sees a `Transition` reach it.
/// 5. At most ``maximumKeys`` distinct live queries per app; more are refused with a failed result.
final class SyncLiveQueries: RealtimeChangeConsumer, Sendable {
    private struct LiveQuery {
        var arguments: [String: JSONValue]
        var identity: SyncIdentity
        var readSet = SyncReadSet()
        var version: Int64 = 0
        var outcome: Result<JSONValue, SyncFunctionError>?
        /// Subscribed sockets with the number of their subscriptions to this key.
        var sessions: [ObjectIdentifier: (session: LoopBound<SyncSession>, count: Int)] = [:]
    }

    private struct State {
        var queries: [SyncQueryKey: LiveQuery] = [:]
        var interested = false
        /// The journal position the last run reflects.
        var ts: Int64 = 0
    }

    let runtime: AppRuntime
    private let feed: RealtimeJournalFeed
    private let runner: SyncFunctionRunner
    private let callers: CallerResolver
    private let state = LockedValue(State())
    private let queue = SyncSerialQueue()

    /// Distinct live queries per app.
    static let maximumKeys = 100_000

    init(runtime: AppRuntime, feed: RealtimeJournalFeed, runner: SyncFunctionRunner, callers: CallerResolver) {
        self.runtime = runtime
        self.feed = feed
        self.runner = runner
        self.callers = callers
    }

    /// Subscribes `session` to `key`; its first result (the key's current one, or a first run's) follows through
    /// ``SyncSession/receive(_:)``.
    func subscribe(_ session: LoopBound<SyncSession>, to key: SyncQueryKey, arguments: [String: JSONValue]) {
        let id = ObjectIdentifier(session.value)
        let (accepted, startInterest) = state.withLock { state -> (Bool, Bool) in
            if state.queries[key] == nil {
                guard state.queries.count < Self.maximumKeys else { return (false, false) }
                state.queries[key] = LiveQuery(arguments: arguments, identity: key.identity)
            }
            let count = state.queries[key]?.sessions[id]?.count ?? 0
            state.queries[key]?.sessions[id] = (session, count + 1)
            defer { state.interested = true }
            return (true, !state.interested)
        }
        if startInterest { feed.addInterest(of: self) }
        guard accepted else {
            let refusal = SyncLiveUpdate.KeyResult(
                key: key, version: Int64.max,
                outcome: .failure(SyncFunctionError("the app has too many live queries", data: ["code": 107])))
            let ts = state.withLock { $0.ts }
            session.loop.execute { session.value.receive(SyncLiveUpdate(ts: ts, results: [refusal])) }
            return
        }
        Task {
            await queue.run {
                let result = await self.current(key)
                guard let result else { return }
                let ts = self.state.withLock { $0.ts }
                session.loop.execute { session.value.receive(SyncLiveUpdate(ts: max(ts, result.ts), results: [result.result])) }
            }
        }
    }

    /// Ends one subscription of `session` to `key`.
    func unsubscribe(_ session: ObjectIdentifier, from key: SyncQueryKey) {
        let stopInterest = state.withLock { state -> Bool in
            guard var query = state.queries[key], let entry = query.sessions[session] else { return false }
            if entry.count > 1 {
                query.sessions[session] = (entry.session, entry.count - 1)
            } else {
                query.sessions[session] = nil
            }
            state.queries[key] = query.sessions.isEmpty ? nil : query
            guard state.queries.isEmpty, state.interested else { return false }
            state.interested = false
            return true
        }
        if stopInterest { feed.removeInterest(of: self) }
    }

    // MARK: - Runs

    /// The key's result: the one it has, or a first run's. `nil` once nobody subscribes.
    private func current(_ key: SyncQueryKey) async -> (result: SyncLiveUpdate.KeyResult, ts: Int64)? {
        guard let query = state.withLock({ $0.queries[key] }) else { return nil }
        if let outcome = query.outcome {
            return (SyncLiveUpdate.KeyResult(key: key, version: query.version, outcome: outcome), 0)
        }
        let run = await run(key, arguments: query.arguments)
        guard let result = record(run, for: key) else { return nil }
        return (result, run.ts)
    }

    /// Runs the query of `key` as its identity.
    private func run(_ key: SyncQueryKey, arguments: [String: JSONValue]) async -> SyncFunctionRunner.QueryRun {
        var context = AppContext(
            runtime: runtime, isMaster: key.identity.kind == .master, sessionToken: key.identity.token, frontDoor: .sync)
        do {
            context = try await callers.resolving(context)
        } catch {
            return SyncFunctionRunner.QueryRun(
                outcome: .failure(SyncFunctionError("the server could not check the session; retrying at the next change")),
                readSet: SyncReadSet(), ts: 0)
        }
        return await runner.query(key.path, arguments, context: context)
    }

    /// Stores a run's outcome; answers the key's result (with a new version when the outcome changed).
    private func record(_ run: SyncFunctionRunner.QueryRun, for key: SyncQueryKey) -> SyncLiveUpdate.KeyResult? {
        state.withLock { state in
            guard var query = state.queries[key] else { return nil }
            query.readSet = run.readSet
            if query.outcome == nil || !Self.same(query.outcome!, run.outcome) {
                query.outcome = run.outcome
                query.version += 1
            }
            state.queries[key] = query
            return SyncLiveUpdate.KeyResult(key: key, version: query.version, outcome: run.outcome)
        }
    }

    private static func same(_ a: Result<JSONValue, SyncFunctionError>, _ b: Result<JSONValue, SyncFunctionError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }

    // MARK: - RealtimeChangeConsumer

    func consume(_ changes: [RealtimeChange], of runtime: AppRuntime) async {
        guard let last = changes.last else { return }
        await queue.run {
            let affected = self.state.withLock { state -> [(SyncQueryKey, [String: JSONValue])] in
                state.queries.compactMap { key, query in
                    changes.contains {
                        query.readSet.isTouched(className: $0.className, objectId: $0.objectId, before: $0.before, after: $0.after)
                    }
                        ? (key, query.arguments) : nil
                }
            }
            var ts = last.seq
            var changed: [SyncQueryKey: SyncLiveUpdate.KeyResult] = [:]
            for (key, arguments) in affected {
                let run = await self.run(key, arguments: arguments)
                ts = max(ts, run.ts)
                let before = self.state.withLock { $0.queries[key]?.version }
                if let result = self.record(run, for: key), result.version != before {
                    changed[key] = result
                }
            }
            let sessions = self.state.withLock { state -> [ObjectIdentifier: (LoopBound<SyncSession>, [SyncLiveUpdate.KeyResult])] in
                state.ts = max(state.ts, ts)
                var sessions: [ObjectIdentifier: (LoopBound<SyncSession>, [SyncLiveUpdate.KeyResult])] = [:]
                for (key, query) in state.queries {
                    let result = changed[key]
                    for (id, entry) in query.sessions {
                        if sessions[id] == nil { sessions[id] = (entry.session, []) }
                        if let result { sessions[id]?.1.append(result) }
                    }
                }
                return sessions
            }
            for (session, results) in sessions.values {
                let update = SyncLiveUpdate(ts: ts, results: results)
                session.loop.execute { session.value.receive(update) }
            }
        }
    }
}
