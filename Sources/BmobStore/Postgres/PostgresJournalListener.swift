import BmobIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Follows the journal that other server nodes append to: a thread with its own connection that `LISTEN`s on
/// the app's channel and, whenever a notification arrives or ``PostgresStore/Configuration/listenerPollMilliseconds``
/// pass, reads the journal's head. A head past the one this node knows moves the commit feed (realtime hubs then
/// read the entries by `seq`), and when the new entries changed a schema, the catalog is reloaded and published.
///
/// Notifications only wake it: the journal is the truth, so a notification lost while the connection was down
/// costs at most one poll interval. A lost connection is replaced, retrying every poll interval.
final class PostgresJournalListener: @unchecked Sendable {
    // Invariant: `connection` and `lastHead` are only touched on the listener's thread; `stopping` is atomic;
    // `sessionObservers` is a mutex.
    private let configuration: PostgresStore.Configuration
    private let registry: SchemaRegistry
    private let commits: StoreCommitFeed
    private var connection: PostgresConnection?
    private var lastHead: Int64
    private let stopping = Atomic<Bool>(false)
    private let sessionObservers = Mutex<[@Sendable () -> Void]>([])

    /// The payload of the notification that announces session changes (``SQLStoreConnection/announceSessionChange()``).
    static let sessionsPayload = "sessions"
    private let thread = ThreadPool(threadCount: 1, name: "bmob-pg-listen")

    init(configuration: PostgresStore.Configuration, registry: SchemaRegistry, commits: StoreCommitFeed) {
        self.configuration = configuration
        self.registry = registry
        self.commits = commits
        self.lastHead = commits.head
    }

    /// Adds an observer of `sessions` notifications, called on the listener's thread.
    func observeSessionChanges(_ observer: @escaping @Sendable () -> Void) {
        sessionObservers.withLock { $0.append(observer) }
    }

    /// Starts the thread.
    func start() {
        thread.submit { _ in self.run() }
    }

    /// Stops the thread and waits for it (at most one poll interval).
    func stop() {
        stopping.store(true, ordering: .relaxed)
        thread.shutdown()
    }

    private func run() {
        while !stopping.load(ordering: .relaxed) {
            do {
                let connection = try connected()
                try wait(on: connection)
                let notifications = try connection.notifications()
                if notifications.contains(where: { $0.payload == Self.sessionsPayload }) {
                    for observer in sessionObservers.withLock({ $0 }) { observer() }
                }
                if !Self.announcesNothingNew(notifications, known: max(lastHead, commits.head)) {
                    try follow(connection)
                }
            } catch {
                connection?.close()
                connection = nil
                usleep(useconds_t(max(10, configuration.listenerPollMilliseconds)) * 1000)
            }
        }
        connection?.close()
        connection = nil
    }

    private func connected() throws -> PostgresConnection {
        if let connection, !connection.isBroken { return connection }
        connection?.close()
        let opened = try PostgresConnection(url: configuration.listenURL ?? configuration.url, applicationName: "bmob-listener")
        try opened.use(schema: configuration.schema)
        try opened.execute("LISTEN \(configuration.schema.channel)")
        connection = opened
        // Announcements sent while this node was not listening are lost: drop every cached session instead.
        for observer in sessionObservers.withLock({ $0 }) { observer() }
        return opened
    }

    /// Waits until the socket has data or the poll interval passes.
    private func wait(on connection: PostgresConnection) throws {
        var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(max(10, configuration.listenerPollMilliseconds)))
    }

    /// Whether `notifications` woke the listener only for commits it already knows: each names its journal head
    /// (or announces sessions), none past `known`, as for this node's own writes. Then the journal need not be
    /// read; a wake without notifications (the poll interval) always reads it.
    static func announcesNothingNew(_ notifications: [PostgresNotification], known: Int64) -> Bool {
        var heads = 0
        for notification in notifications where notification.payload != sessionsPayload {
            guard let head = Int64(notification.payload), head <= known else { return false }
            heads += 1
        }
        return heads > 0
    }

    /// Reads the journal's head and, past the last one seen, what changed.
    private func follow(_ connection: PostgresConnection) throws {
        let known = max(lastHead, commits.head)
        let (head, schemaChanged) =
            try connection.firstRow(
                """
                SELECT COALESCE(max(seq), 0), COALESCE(bool_or(op IN ('schema', 'dropClass')), false)
                FROM "__journal" WHERE seq > ?
                """, [.integer(known)]
            ) { ($0.int64(0), $0.bool(1)) } ?? (0, false)
        guard head > known else { return }
        if schemaChanged {
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let catalog = try SchemaRows.loadCatalog(connection)
                let catalogHead = try JournalRows.lastSeq(connection)
                try connection.execute("ROLLBACK")
                registry.publish(catalog, asOf: catalogHead)
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
        lastHead = head
        commits.committed(through: head)
    }
}
