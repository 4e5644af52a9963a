import BmobIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server node's part in the channels of a cluster on PostgreSQL (``PostgresChannelTables``): it records this
/// node's connections on channels so that counts, presence members and occupancy are the whole cluster's, writes
/// messages for other nodes' sockets to the log, reads theirs, beats, and removes dead nodes' connections.
///
/// Two threads, each with its own connection:
/// - the **worker** runs joins, leaves, appends and the HTTP API's reads one at a time, in the order they were
///   asked for (a connection's leave never overtakes its join);
/// - the **reader** `LISTEN`s on `bmob_channels` and, on a notification or every poll interval, reads the log
///   after the last `seq` it saw and hands other nodes' messages to ``Handlers/deliver``; every third of the node
///   timeout it beats, removes the connections of nodes whose heartbeat is older than the timeout (under the
///   lock, so only one survivor does it and announces who left; and only once this node has itself reached the
///   database for a whole timeout, so that after an outage nodes do not take each other for dead) and prunes old
///   messages.
///
/// Notifications only wake the reader: the log is the truth, so a lost notification costs at most one poll.
package final class PostgresChannelCluster: @unchecked Sendable {
    // Invariant: `workerConnection` and `workerRetryAfter` are only touched on the worker thread, `readerConnection` and `lastSeq` only on
    // the reader thread (each connection checks it too); `stopping` is atomic; `handlers` is locked, and so is
    // `waiting`, which also guards every change of `delivered` (read under it to decide whether to wait).
    package let configuration: Configuration
    private let worker: ThreadPool
    private let reader: ThreadPool
    private var workerConnection: PostgresConnection?
    /// When the worker may try to connect again (monotonic nanoseconds).
    private var workerRetryAfter: UInt64 = 0
    private var readerConnection: PostgresConnection?
    private var lastSeq: Int64 = 0
    private let stopping = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let handlers = LockedValue<Handlers?>(nil)
    /// The last `seq` the reader has handed over (delivered, or skipped as this node's own).
    private let delivered = Atomic<Int64>(0)
    /// Completions that wait for the reader to reach a `seq`.
    private let waiting = LockedValue<[(seq: Int64, run: @Sendable () -> Void)]>([])
    /// Whether the worker still takes work: set, under its lock, before the worker is shut down, so that nothing
    /// is submitted to it afterwards.
    private let workerOpen = LockedValue<Bool>(true)
    /// Messages ``post(_:failed:)`` queued for the worker's next append, written together in one transaction.
    private let outbox = LockedValue<Outbox>(Outbox())
    /// Most messages queued for the worker: beyond, a post fails at once (the database is away or too slow).
    static let maximumQueuedMessages = 10_000
    /// Leaves that failed, by (app, channel, socket), to try again after each heartbeat.
    private let failedLeaves = LockedValue<[[String]: ChannelClusterSubscription]>([:])
    /// Most failed leaves kept; beyond, this node's stop or death removes the rows.
    static let maximumFailedLeaves = 100_000

    private struct Outbox {
        var messages: [(applicationId: String, body: String)] = []
        var failures: [@Sendable (StoreError) -> Void] = []
        var scheduled = false
    }

    /// A node's part; nothing runs until ``start(_:)``.
    package init(_ configuration: Configuration) {
        self.configuration = configuration
        worker = ThreadPool(threadCount: 1, name: "bmob-ch-w")
        reader = ThreadPool(threadCount: 1, name: "bmob-ch-r")
    }

    /// Makes the tables if needed, records this node's first heartbeat and starts reading the log from its head.
    ///
    /// - Throws: ``StoreError`` (``StoreError/Code/unavailable`` when the database cannot be reached).
    package func start(_ handlers: Handlers) async throws {
        self.handlers.withLock { $0 = handlers }
        // The reader starts from the head as of now, not as of its first read: a message written once this
        // returns is always delivered.
        let head = try await onWorker { [self] in
            let connection = try workerConnected()
            try PostgresChannelTables.create(connection)
            _ = try PostgresChannelTables.beat(connection, node: configuration.node)
            return try PostgresChannelTables.head(connection)
        }
        reader.submit { [self] _ in read(from: head) }
    }

    /// Stops reading, lets queued work finish, then removes this node's connections (announcing the members who
    /// left with them, through ``Handlers/reaped``) and its heartbeat. Safe to call more than once.
    package func stop() async {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        stopping.store(true, ordering: .relaxed)
        await Self.offThePool { [reader] in reader.shutdown() }
        for waiter in waiting.withLock({ waiting in
            defer { waiting = [] }; return waiting
        }) { waiter.run() }
        if handlers.withLock({ $0 != nil }) { await removeOwnConnections() }
        workerOpen.withLock { $0 = false }
        await Self.offThePool { [worker] in worker.shutdown() }
    }

    /// Runs blocking `body` (joining a thread) on a thread of its own, not the calling task's.
    private static func offThePool(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.spawn(name: "bmob-ch-stop") {
                body()
                continuation.resume()
            }.detach()
        }
    }

    /// Removes this node's connections and heartbeat, announcing the members who left with them.
    private func removeOwnConnections() async {
        _ = try? await onWorker { [self] in
            defer {
                workerConnection?.close()
                workerConnection = nil
            }
            let connection = try workerConnected()
            let leaves = try PostgresChannelTables.reap(
                connection, node: configuration.node, gone: configuration.node, staleAfter: nil,
                memberRemoved: currentHandlers.memberRemoved)
            if !leaves.isEmpty { currentHandlers.reaped(leaves) }
        }
    }

    // MARK: - Worker

    /// Records `subscription` and calls `completion` with what it changed, once this node's reader has handed over
    /// every message up to the join (on the worker's or the reader's thread): whatever the server does next (say,
    /// listen to the channel) comes after the messages the members it was given already include, and before
    /// every later one.
    package func join(
        _ subscription: ChannelClusterSubscription,
        completion: @escaping @Sendable (Result<ChannelClusterJoin, StoreError>) -> Void
    ) {
        let afterReading: @Sendable (Result<ChannelClusterJoin, StoreError>) -> Void = { [self] result in
            guard case .success(let joined) = result else { return completion(result) }
            let now: Bool = waiting.withLock { waiting in
                guard delivered.load(ordering: .relaxed) < joined.logPosition, !stopping.load(ordering: .relaxed) else {
                    return true
                }
                waiting.append((joined.logPosition, { completion(result) }))
                return false
            }
            if now { completion(result) }
        }
        onWorker(afterReading) { [self] connection in
            // A leave of this connection that failed earlier must not, retried, remove the row this join makes.
            failedLeaves.withLock { $0[Self.key(subscription)] = nil }
            return try PostgresChannelTables.join(
                connection, node: configuration.node, subscription, maximumMembers: configuration.maximumMembers,
                memberAdded: { currentHandlers.memberAdded(subscription.applicationId, subscription.channel, $0) },
                subscriptionCount: { currentHandlers.subscriptionCount(subscription.applicationId, subscription.channel, $0) })
        }
    }

    /// Removes `subscription` and calls `completion` (on the worker thread) with what it changed. A leave that
    /// fails is tried again after each heartbeat until it succeeds (its outcome then goes to ``Handlers/reaped``),
    /// unless the same connection joins the channel again first.
    package func leave(
        _ subscription: ChannelClusterSubscription,
        completion: @escaping @Sendable (Result<ChannelClusterLeave, StoreError>) -> Void
    ) {
        onWorker({ [self] result in
            if case .failure = result {
                failedLeaves.withLock { failed in
                    if failed.count < Self.maximumFailedLeaves { failed[Self.key(subscription)] = subscription }
                }
            }
            completion(result)
        }) { [self] connection in
            try PostgresChannelTables.leave(
                connection, node: configuration.node, subscription, memberRemoved: currentHandlers.memberRemoved,
                subscriptionCount: { currentHandlers.subscriptionCount(subscription.applicationId, subscription.channel, $0) })
        }
    }

    /// Tries the leaves that failed again, on the worker, reporting what they changed through ``Handlers/reaped``.
    private func retryFailedLeaves() {
        guard failedLeaves.withLock({ !$0.isEmpty }) else { return }
        _ = submit { [self] in
            let pending = failedLeaves.withLock { failed in
                defer { failed = [:] }
                return failed
            }
            var outcomes: [ChannelClusterLeave] = []
            for (key, subscription) in pending {
                do {
                    let outcome = try withWorkerConnection { connection in
                        try PostgresChannelTables.leave(
                            connection, node: configuration.node, subscription,
                            memberRemoved: currentHandlers.memberRemoved,
                            subscriptionCount: {
                                currentHandlers.subscriptionCount(subscription.applicationId, subscription.channel, $0)
                            })
                    }
                    if outcome.vacated || outcome.goneUserId != nil { outcomes.append(outcome) }
                } catch {
                    failedLeaves.withLock { failed in
                        if failed[key] == nil { failed[key] = subscription }
                    }
                }
            }
            if !outcomes.isEmpty { currentHandlers.reaped(outcomes) }
        }
    }

    private static func key(_ subscription: ChannelClusterSubscription) -> [String] {
        [subscription.applicationId, subscription.channel, subscription.socket]
    }

    /// Appends messages for the other nodes' sockets.
    ///
    /// - Throws: ``StoreError``.
    package func append(_ messages: [(applicationId: String, body: String)]) async throws {
        try await onWorker { [self] in
            try withWorkerConnection { connection in
                try PostgresChannelTables.locked(connection) {
                    try PostgresChannelTables.append(connection, node: configuration.node, messages)
                }
            }
        }
    }

    /// Appends messages without waiting; a failure is reported to `failed` (on the worker thread, or at once when
    /// too many wait). Posts that queue up while the worker is busy are appended together, in one transaction.
    package func post(
        _ messages: [(applicationId: String, body: String)], failed: @escaping @Sendable (StoreError) -> Void
    ) {
        let schedule: Bool? = outbox.withLock { outbox in
            guard outbox.messages.count + messages.count <= Self.maximumQueuedMessages else { return nil }
            outbox.messages += messages
            outbox.failures.append(failed)
            defer { outbox.scheduled = true }
            return !outbox.scheduled
        }
        guard let schedule else { return failed(StoreError(.busy, "too many channel messages wait for the database")) }
        guard schedule else { return }
        let submitted = submit { [self] in
            let (messages, failures) = outbox.withLock { outbox in
                defer { outbox = Outbox() }
                return (outbox.messages, outbox.failures)
            }
            do {
                try withWorkerConnection { connection in
                    try PostgresChannelTables.locked(connection) {
                        try PostgresChannelTables.append(connection, node: configuration.node, messages)
                    }
                }
            } catch {
                let failure =
                    error as? StoreError
                    ?? StoreError(.internal, "appending channel messages failed", underlying: error)
                for failed in failures { failed(failure) }
            }
        }
        if !submitted {
            let failures = outbox.withLock { outbox in
                defer { outbox = Outbox() }
                return outbox.failures
            }
            for failed in failures { failed(StoreError(.closed, "the channel cluster stopped")) }
        }
    }

    /// A presence channel's members on every node.
    package func members(applicationId: String, channel: String) async throws -> [ChannelClusterMember] {
        try await onWorker { [self] in
            try withWorkerConnection { try PostgresChannelTables.presence($0, applicationId, channel) }
        }
    }

    /// A channel's connections on every node.
    package func subscriptionCount(applicationId: String, channel: String) async throws -> Int {
        try await onWorker { [self] in
            try withWorkerConnection { try PostgresChannelTables.subscriptionCount($0, applicationId, channel) }
        }
    }

    /// An app's occupied channels on every node.
    package func occupiedChannels(of applicationId: String) async throws -> [ChannelClusterChannel] {
        try await onWorker { [self] in
            try withWorkerConnection { try PostgresChannelTables.occupied($0, applicationId) }
        }
    }

    private var currentHandlers: Handlers {
        guard let handlers = handlers.withLock({ $0 }) else {
            preconditionFailure("the channel cluster was not started")
        }
        return handlers
    }

    /// Queues `work` on the worker unless it stopped; returns whether it did.
    private func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        workerOpen.withLock { open in
            if open { worker.submit { _ in work() } }
            return open
        }
    }

    /// Runs `body` on the worker and returns its result to the calling task.
    private func onWorker<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let submitted = submit { continuation.resume(with: Result { try body() }) }
            if !submitted { continuation.resume(throwing: StoreError(.closed, "the channel cluster stopped")) }
        }
    }

    private func onWorker<T: Sendable>(
        _ completion: @escaping @Sendable (Result<T, StoreError>) -> Void,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) {
        let submitted = submit { [self] in
            do {
                completion(.success(try withWorkerConnection(body)))
            } catch let error as StoreError {
                completion(.failure(error))
            } catch {
                completion(.failure(StoreError(.internal, "the channel state failed", underlying: error)))
            }
        }
        if !submitted { completion(.failure(StoreError(.closed, "the channel cluster stopped"))) }
    }

    /// Runs `body` on the worker's connection. When a connection kept from earlier work turns out to be lost (the
    /// server restarted meanwhile, which the connection learns only as it is used), `body` runs once more on a new
    /// one: a lost connection fails at its first statement, before anything was written, except in the rare loss
    /// during a `COMMIT`, after which a message may be written twice.
    private func withWorkerConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let reused = workerConnection.map { !$0.isBroken } ?? false
        let connection = try workerConnected()
        do {
            return try body(connection)
        } catch {
            guard connection.isBroken else { throw error }
            connection.close()
            workerConnection = nil
            guard reused else { throw error }
            return try body(try workerConnected())
        }
    }

    /// The worker's connection, opened again when lost; after a failed attempt, calls fail at once for a poll
    /// interval, so that work queued during an outage does not wait for a connection timeout each.
    private func workerConnected() throws(StoreError) -> PostgresConnection {
        if let workerConnection, !workerConnection.isBroken { return workerConnection }
        workerConnection?.close()
        workerConnection = nil
        guard Self.monotonicNanoseconds() >= workerRetryAfter else {
            throw StoreError(.unavailable, "the database was not reached moments ago")
        }
        do {
            let opened = try PostgresConnection(url: configuration.url, applicationName: "bmob-channels")
            workerConnection = opened
            return opened
        } catch {
            workerRetryAfter = Self.monotonicNanoseconds() + UInt64(max(10, configuration.pollMilliseconds)) * 1_000_000
            throw error
        }
    }

    // MARK: - Reader

    private func read(from head: Int64) {
        lastSeq = head
        handedOver(head)
        var nextBeat: UInt64 = 0
        let beatNanoseconds = UInt64(max(0.05, configuration.nodeTimeoutSeconds / 3) * 1_000_000_000)
        let timeoutNanoseconds = UInt64(max(0, configuration.nodeTimeoutSeconds) * 1_000_000_000)
        // Since when this node has reached the database without a failure; `nil` after one. Other nodes are judged
        // dead only after a full timeout of this node's own health: after an outage every node's beat is old, and
        // the first node back must not take the others, which beat again within a third of the timeout, for dead.
        var healthySince: UInt64? = Self.monotonicNanoseconds()
        while !stopping.load(ordering: .relaxed) {
            do {
                let connection = try readerConnected()
                let now = Self.monotonicNanoseconds()
                if now >= nextBeat {
                    nextBeat = now + beatNanoseconds
                    let since = healthySince ?? now
                    healthySince = since
                    try beat(connection, reaps: now - since >= timeoutNanoseconds)
                }
                try follow(connection)
                var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
                let untilBeat = Int32(clamping: (nextBeat &- min(nextBeat, Self.monotonicNanoseconds())) / 1_000_000)
                _ = poll(&descriptor, 1, max(1, min(Int32(max(10, configuration.pollMilliseconds)), untilBeat)))
                _ = try connection.notifications()
            } catch {
                healthySince = nil
                readerConnection?.close()
                readerConnection = nil
                usleep(useconds_t(max(10, configuration.pollMilliseconds)) * 1000)
            }
        }
        readerConnection?.close()
        readerConnection = nil
    }

    private func readerConnected() throws(StoreError) -> PostgresConnection {
        if let readerConnection, !readerConnection.isBroken { return readerConnection }
        readerConnection?.close()
        let opened = try PostgresConnection(
            url: configuration.listenURL ?? configuration.url, applicationName: "bmob-channels-listener")
        try opened.execute("LISTEN \(PostgresChannelTables.notifyChannel)")
        readerConnection = opened
        return opened
    }

    /// Hands the messages after ``lastSeq`` that other nodes wrote to the server.
    private func follow(_ connection: PostgresConnection) throws {
        while true {
            let batch = try PostgresChannelTables.messages(
                connection, after: lastSeq, limit: 500, maximumBytes: configuration.maximumMessageBytes)
            guard let last = batch.last else { return }
            lastSeq = last.seq
            for message in batch {
                if message.node != configuration.node, !message.body.isEmpty { currentHandlers.deliver([message]) }
                handedOver(message.seq)
            }
            if batch.count < 500 { return }
        }
    }

    /// Records that the reader handed over the messages up to `seq`, and runs the completions that waited for it.
    private func handedOver(_ seq: Int64) {
        let ready: [(seq: Int64, run: @Sendable () -> Void)] = waiting.withLock { waiting in
            delivered.store(seq, ordering: .relaxed)
            guard waiting.contains(where: { $0.seq <= seq }) else { return [] }
            defer { waiting.removeAll { $0.seq <= seq } }
            return waiting.filter { $0.seq <= seq }
        }
        for waiter in ready { waiter.run() }
    }

    /// Beats, removes dead nodes' connections (when `reaps`) and prunes the log.
    private func beat(_ connection: PostgresConnection, reaps: Bool) throws {
        if try PostgresChannelTables.beat(connection, node: configuration.node) {
            currentHandlers.revived()
        }
        retryFailedLeaves()
        guard reaps else { return }
        let timeout = configuration.nodeTimeoutSeconds
        let dead =
            try PostgresChannelTables.staleNodes(connection, except: configuration.node, timeout: timeout)
            + PostgresChannelTables.orphanedNodes(connection, except: configuration.node, timeout: timeout)
        for dead in dead {
            let leaves = try PostgresChannelTables.reap(
                connection, node: configuration.node, gone: dead, staleAfter: configuration.nodeTimeoutSeconds,
                memberRemoved: currentHandlers.memberRemoved)
            if !leaves.isEmpty { currentHandlers.reaped(leaves) }
        }
        try PostgresChannelTables.prune(connection, olderThan: configuration.logRetentionSeconds)
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
