package import BmobIO
import BmobStore
import BmobWire
import Synchronization

/// One app's realtime events: tails the app's journal after each commit and hands every event to the loops
/// that have listeners for it.
///
/// Rules:
/// 1. The journal is the source. Events are read back from committed journal rows by `seq`, never taken from
///    the request that wrote them, so writes from every front door (and, on PostgreSQL, from other nodes)
///    produce the same events, and a rolled-back write produces none.
/// 2. A listener gets what commits after it registered: when the first listener of an idle feed arrives, the
///    feed skips to the journal's current head. Nothing older is replayed.
/// 3. While the app has no listeners the feed reads nothing; commit notices are ignored.
/// 4. Each event is rendered, checked against public read access and encoded once, then posted once to
///    each loop with listeners for it; loops fan it out to their listeners (``RealtimeLoopIndex``), a few
///    hundred listeners per step, and an event that arrives during a fan-out of its key joins it
///    (``RealtimeRun``): one write per listener for all the frames it lacks.
/// 5. Per loop, events arrive in journal order (one task reads, and `EventLoop.execute` is FIFO), and every
///    listener gets them in that order.
package final class RealtimeFeed: Sendable {
    private struct State {
        /// For each key, the loops that have at least one listener for it.
        var loops: [RealtimeSubscriptionKey: [ObjectIdentifier: LoopBound<RealtimeLoopIndex>]] = [:]
        /// How many (key, loop) pairs are registered; zero means idle.
        var registrations = 0
        /// Entries at or below this `seq` are not delivered (rule 2).
        var floor: Int64 = 0
        var wakePending = false
        var waiter: CheckedContinuation<Bool, Never>?
        var stopped = false
    }

    /// The app whose journal the feed reads.
    package let runtime: AppRuntime
    private let logger: Logger
    private let state = Mutex(State())
    /// Journal entries read per query.
    private static let batchSize = 256

    init(runtime: AppRuntime, logger: Logger) {
        self.runtime = runtime
        self.logger = logger
    }

    /// Starts reading: the commit observer and the reading task.
    func start() {
        runtime.store.observeCommits { [weak self] _ in self?.commitObserved() }
        Task { await self.run() }
    }

    /// Stops the reading task; nothing is delivered afterwards.
    func stop() {
        let waiter = state.withLock { state in
            state.stopped = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: false)
    }

    /// A loop has its first listener for `key`. Called on that loop.
    package func add(_ key: RealtimeSubscriptionKey, index: LoopBound<RealtimeLoopIndex>) {
        let store = runtime.store
        state.withLock { state in
            if state.registrations == 0 {
                state.floor = max(state.floor, store.committedJournalSeq)
            }
            if state.loops[key, default: [:]].updateValue(index, forKey: ObjectIdentifier(index.loop)) == nil {
                state.registrations += 1
            }
        }
    }

    /// A loop has no listener left for `key`. Called on that loop.
    package func remove(_ key: RealtimeSubscriptionKey, loop: EventLoop) {
        state.withLock { state in
            guard state.loops[key]?.removeValue(forKey: ObjectIdentifier(loop)) != nil else { return }
            state.registrations -= 1
            if state.loops[key]?.isEmpty ?? false { state.loops[key] = nil }
        }
    }

    // MARK: - Reading

    /// Runs on the store's writer thread after a commit: wakes the reader, if anyone listens.
    private func commitObserved() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard state.registrations > 0, !state.stopped else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.wakePending = true
            return nil
        }
        waiter?.resume(returning: true)
    }

    /// Waits for a commit notice; `false` once stopped.
    private func nextWake() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now: Bool? = state.withLock { state in
                if state.stopped { return false }
                if state.wakePending {
                    state.wakePending = false
                    return true
                }
                state.waiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    private func run() async {
        var cursor: Int64 = 0
        while await nextWake() {
            cursor = max(cursor, state.withLock { $0.floor })
            do {
                while true {
                    let entries = try await runtime.store.journal(after: cursor, limit: Self.batchSize)
                    guard let last = entries.last else { break }
                    cursor = last.seq
                    await publish(entries)
                    if entries.count < Self.batchSize { break }
                }
            } catch {
                if state.withLock({ $0.stopped }) { return }
                logger.error("realtime: reading the journal of app \(runtime.app.applicationId) failed: \(error)")
            }
        }
    }

    // MARK: - Publishing

    private func publish(_ entries: [JournalEntry]) async {
        // Which changes anyone listens to, and where.
        var targets: [(change: RealtimeChange, loops: [LoopBound<RealtimeLoopIndex>])] = []
        state.withLock { state in
            let floor = state.floor
            for entry in entries where entry.seq > floor {
                for change in RealtimeChange.changes(of: entry) {
                    if let loops = state.loops[change.subscriptionKey], !loops.isEmpty {
                        targets.append((change, Array(loops.values)))
                    }
                }
            }
        }
        guard !targets.isEmpty else { return }
        let permissions = await classPermissions(of: Set(targets.map(\.change.tableName)))
        let app = runtime.app
        // Subscribers are anonymous: `_User` events carry only what the public may see.
        let renderer = ObjectRenderer(offsetSeconds: app.dateOffsetSeconds, privacy: .anonymous(app.security))
        for (change, loops) in targets {
            guard let permission = permissions[change.tableName],
                change.isVisibleToPublic(permissions: permission, ignoringACL: app.realtimeIgnoresACL)
            else { continue }
            var data: [String: JSONValue] = [:]
            if let object = change.object, let stored = StoredObject(className: change.tableName, json: object) {
                data = renderer.render(stored)
            }
            let publication = BmobRealtimePublication(
                appKey: app.applicationId, tableName: change.tableName,
                objectId: change.action.isRowAction ? change.objectId : "", action: change.action, data: data)
            let frame = WebSocketFrame(opcode: .text, payload: Array(publication.packet().encoded.utf8)).encoded()
            let event = RealtimeQueuedEvent(appId: app.applicationId, key: change.subscriptionKey, encodedFrame: frame)
            for index in loops {
                index.loop.execute {
                    if index.value.enqueue(event) { RealtimeLoopIndex.drive(index) }
                }
            }
        }
    }

    /// The class permissions of `classes` (`.some(nil)`: none set, open). A class whose permissions cannot
    /// be read is left out, so its events are not sent (fail closed).
    private func classPermissions(of classes: Set<String>) async -> [String: ClassPermissions?] {
        let names = Array(classes)
        do {
            let stored = try await runtime.store.read { transaction in
                try names.map { try transaction.classPermissions(className: $0) }
            }
            var result: [String: ClassPermissions?] = [:]
            for (name, json) in zip(names, stored) {
                if let json {
                    guard let permissions = try? ClassPermissions(json: json) else { continue }
                    result[name] = .some(permissions)
                } else {
                    result[name] = .some(nil)
                }
            }
            return result
        } catch {
            logger.error("realtime: reading class permissions of app \(runtime.app.applicationId) failed: \(error)")
            return [:]
        }
    }
}
