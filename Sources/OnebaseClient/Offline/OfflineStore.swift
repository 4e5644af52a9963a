import BmobCrypto
public import Foundation

/// The client's offline storage (`sync.md` §2.6): the newest query results, a mutation queue, and whose they are.
///
/// Pass one to ``OnebaseClient/init(url:offlineStore:tokenStore:)``, or pass an `offlineDirectory` to
/// ``OnebaseClient/init(url:offlineDirectory:)`` for one with the default size.
///
/// On disk, under ``directory``:
/// - `cache/<sha256 of the query token>.json`: `{token, value, savedAt, ownerUserId}`, one file per result, written
///   atomically (a temporary file renamed over the old one); beyond ``maxCachedQueries`` the least recently saved are
///   deleted.
/// - `queue.json`: the queued mutations in order, rewritten atomically on every change, each marked `sent` before
///   it goes out.
/// - `meta.json`: the user the server last confirmed, and a hash of the token it confirmed.
///
/// Files hold only server results and the app's own arguments; nothing here is encrypted. Put the directory where
/// the platform protects app data (the app's container on Apple platforms).
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held, and
/// file writes happen while it is held, so writes to one file never interleave.
public final class OfflineStore: @unchecked Sendable {
    /// The folder the store keeps its files in; made when needed.
    public let directory: URL
    /// How many query results are kept; the least recently saved beyond it are evicted.
    public let maxCachedQueries: Int

    private let lock = NSLock()
    private var records: [String: OfflineCacheRecord] = [:]
    private var queue: [OfflineQueuedMutation] = []
    private var storedMeta = OfflineStoreMeta()
    private var lastSavedAt: Double = 0

    /// A store in `directory`, reading what an earlier run left there.
    ///
    /// - Parameters:
    ///   - directory: a folder of its own (made when needed).
    ///   - maxCachedQueries: how many query results to keep; 100 by default, at least 1.
    public init(directory: URL, maxCachedQueries: Int = 100) {
        self.directory = directory
        self.maxCachedQueries = max(1, maxCachedQueries)
        load()
    }

    // MARK: - Cache

    /// The cached result of the query `token`, when it was read as `user`.
    func cachedValue(_ token: String, user: String) -> OnebaseValue? {
        lock.withLock {
            guard let record = records[token], record.ownerUserId == user else { return nil }
            return record.value
        }
    }

    /// The number of cached results.
    var cachedCount: Int { lock.withLock { records.count } }

    /// Saves the server's result of the query `token`, read as `user`, evicting the oldest beyond the limit.
    func saveCache(_ token: String, value: OnebaseValue, user: String, now: Date) {
        lock.withLock {
            if let existing = records[token], existing.value == value, existing.ownerUserId == user { return }
            let savedAt = max(now.timeIntervalSince1970, lastSavedAt + 0.000_001)
            lastSavedAt = savedAt
            let record = OfflineCacheRecord(token: token, value: value, savedAt: savedAt, ownerUserId: user)
            guard let data = try? JSONEncoder().encode(record) else { return }
            try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
            guard (try? data.write(to: cacheFile(token), options: .atomic)) != nil else { return }
            records[token] = record
            evictBeyondLimit()
        }
    }

    /// Deletes every cached result.
    func clearCache() {
        lock.withLock {
            records = [:]
            try? FileManager.default.removeItem(at: cacheDirectory)
        }
    }

    // MARK: - Owner

    /// Who the cache belongs to.
    var meta: OfflineStoreMeta { lock.withLock { storedMeta } }

    /// Records who the cache belongs to now.
    func setMeta(_ meta: OfflineStoreMeta) {
        lock.withLock {
            guard meta != storedMeta else { return }
            storedMeta = meta
            write(meta, to: metaFile)
        }
    }

    // MARK: - Queue

    /// The queued mutations, oldest first.
    var queuedMutations: [OfflineQueuedMutation] { lock.withLock { queue } }

    /// Appends a mutation to the queue.
    ///
    /// - Returns: its id.
    func enqueue(name: String, args: [String: OnebaseValue], owner: String?, now: Date) -> String {
        lock.withLock {
            let entry = OfflineQueuedMutation(
                localId: UUID().uuidString, seq: (queue.last?.seq ?? 0) + 1, name: name, args: args, ownerUserId: owner,
                createdAt: now.timeIntervalSince1970, state: .pending)
            queue.append(entry)
            write(queue, to: queueFile)
            return entry.localId
        }
    }

    /// Marks a queued mutation as sent, on disk, before it goes out.
    func markSent(_ localId: String) {
        lock.withLock {
            guard let index = queue.firstIndex(where: { $0.localId == localId }) else { return }
            queue[index].state = .sent
            write(queue, to: queueFile)
        }
    }

    /// Removes queued mutations.
    func removeQueued(_ localIds: Set<String>) {
        guard !localIds.isEmpty else { return }
        lock.withLock {
            let before = queue.count
            queue.removeAll { localIds.contains($0.localId) }
            if queue.count != before { write(queue, to: queueFile) }
        }
    }

    // MARK: - Files

    private var cacheDirectory: URL { directory.appendingPathComponent("cache", isDirectory: true) }
    private var queueFile: URL { directory.appendingPathComponent("queue.json") }
    private var metaFile: URL { directory.appendingPathComponent("meta.json") }

    private func cacheFile(_ token: String) -> URL {
        cacheDirectory.appendingPathComponent(SHA256.hex(Array(token.utf8)) + ".json")
    }

    /// Writes `value` as JSON to `file`, atomically; a failure leaves the old file (the store is best effort).
    private func write(_ value: some Encodable, to file: URL) {
        guard let data = try? JSONEncoder().encode(value) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }

    /// Reads what an earlier run left; unreadable files are dropped.
    private func load() {
        let decoder = JSONDecoder()
        if let data = try? Data(contentsOf: metaFile), let meta = try? decoder.decode(OfflineStoreMeta.self, from: data)
        {
            storedMeta = meta
        }
        if let data = try? Data(contentsOf: queueFile),
            let entries = try? decoder.decode([OfflineQueuedMutation].self, from: data)
        {
            queue = entries.sorted { $0.seq < $1.seq }
        }
        let files =
            (try? FileManager.default.contentsOfDirectory(at: cacheDirectory, includingPropertiesForKeys: nil)) ?? []
        for file in files {
            guard let data = try? Data(contentsOf: file),
                let record = try? decoder.decode(OfflineCacheRecord.self, from: data),
                file.lastPathComponent == SHA256.hex(Array(record.token.utf8)) + ".json"
            else {
                // A temporary file of an interrupted write, or a damaged record.
                try? FileManager.default.removeItem(at: file)
                continue
            }
            records[record.token] = record
            lastSavedAt = max(lastSavedAt, record.savedAt)
        }
        evictBeyondLimit()
    }

    /// Deletes the least recently saved results beyond ``maxCachedQueries``; called with `lock` held (or from `init`).
    private func evictBeyondLimit() {
        guard records.count > maxCachedQueries else { return }
        let evicted = records.values.sorted { ($0.savedAt, $0.token) < ($1.savedAt, $1.token) }
            .prefix(records.count - maxCachedQueries)
        for record in evicted {
            records[record.token] = nil
            try? FileManager.default.removeItem(at: cacheFile(record.token))
        }
    }
}
