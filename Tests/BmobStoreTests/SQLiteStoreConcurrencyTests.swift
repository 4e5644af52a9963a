import BmobStore
import BmobTesting
import BmobWire
import Dispatch
import Foundation
import Testing

@Suite("SQLiteStore writer, readers and lifecycle", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLiteStoreConcurrencyTests {
    @Test func concurrentWritesCommitInGroupsWithContiguousJournal() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            let total = 200
            let before = store.statistics
            // The first write holds the writer until all others are queued, so they must share one COMMIT.
            let blocker = Task {
                try await store.write(caller: "blocker") { transaction in
                    let deadline = Date().addingTimeInterval(20)
                    while store.statistics.enqueuedWrites < before.enqueuedWrites + total, Date() < deadline {
                        usleep(1000)
                    }
                    try transaction.insert(Fixtures.post("w0"))
                }
            }
            while store.statistics.enqueuedWrites == before.enqueuedWrites { await Task.yield() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 1..<total {
                    group.addTask {
                        try await store.write(caller: JournalAuthor(caller: "writer-\(index)")) { try $0.insert(Fixtures.post("w\(index)")) }
                    }
                }
                try await group.waitForAll()
            }
            try await blocker.value

            let after = store.statistics
            #expect(after.committedWrites - before.committedWrites == total)
            #expect(after.failedWrites == before.failedWrites)
            // The blocker's group, then everything queued behind it (or all in one, had the writer thread
            // woken only after every write was queued).
            #expect((1...2).contains(after.transactions - before.transactions))

            // The class's creation (a schema entry), then one create per write, numbered without gaps.
            let entries = try await store.journal(after: 0, limit: 1000)
            #expect(entries.map(\.seq) == Array(1...Int64(total + 1)))
            #expect(entries.filter { $0.op == .schema }.count == 1)
            #expect(Set(entries.filter { $0.op == .create }.compactMap(\.objectId)).count == total)
            #expect(try await store.read { try $0.count(className: "Post") } == total)
        }
    }

    @Test func failingWritesInAGroupRollBackAlone() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<60 {
                    group.addTask {
                        do {
                            try await store.write(caller: nil) { transaction in
                                try transaction.insert(Fixtures.post("p\(index)"))
                                try transaction.recordFields(
                                    className: "Post", fields: ["f\(index)": .init(type: .string)])
                                if index % 3 == 0 { throw Rollback() }
                            }
                            return (index, true)
                        } catch is Rollback {
                            return (index, false)
                        }
                    }
                }
                return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(results.count == 60)
            #expect(results.allSatisfy { $0.value == ($0.key % 3 != 0) })
            let (count, schema) = try await store.read { transaction in
                (try transaction.count(className: "Post"), try transaction.schema(className: "Post"))
            }
            #expect(count == 40)
            #expect(Set(schema.keys) == Set((0..<60).filter { $0 % 3 != 0 }.map { "f\($0)" }))
            // Each kept write journaled its create and its new field; the class's creation came with the first.
            let entries = try await store.journal(after: 0, limit: 200)
            #expect(entries.map(\.seq) == Array(1...Int64(entries.count)))
            #expect(entries.filter { $0.op == .schema }.count == 41)
            let created = entries.filter { $0.op == .create }.compactMap(\.objectId)
            #expect(created.count == 40)
            #expect(Set(created) == Set((0..<60).filter { $0 % 3 != 0 }.map { "p\($0)" }))
        }
    }

    @Test func readersSeeCommittedDataFromEveryConnection() async throws {
        try await TemporaryDatabase.withStore(readerCount: 3) { store, _ async throws in
            for round in 0..<5 {
                try await store.write(caller: nil) { try $0.insert(Fixtures.post("p\(round)")) }
                let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<12 {
                        group.addTask { try await store.read { try $0.count(className: "Post") } }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(counts == Array(repeating: round + 1, count: 12))
            }
        }
    }

    @Test func aReadKeepsItsSnapshotWhileAWriteCommits() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            try await store.write(caller: nil) { try $0.insert(Fixtures.post("p1")) }
            let snapshotTaken = DispatchSemaphore(value: 0)
            let writeDone = DispatchSemaphore(value: 0)
            let reader = Task {
                try await store.read { transaction in
                    let first = try transaction.count(className: "Post")
                    snapshotTaken.signal()
                    writeDone.wait()
                    return (first, try transaction.count(className: "Post"))
                }
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    snapshotTaken.wait()
                    continuation.resume()
                }
            }
            // The writer does not wait for the reader (WAL).
            try await store.write(caller: nil) { try $0.insert(Fixtures.post("p2")) }
            writeDone.signal()
            let (first, second) = try await reader.value
            #expect(first == 1)
            #expect(second == 1)
            #expect(try await store.read { try $0.count(className: "Post") } == 2)
        }
    }

    @Test func cancellingARunningReadInterruptsIt() async throws {
        try await TemporaryDatabase.withStore(readerCount: 1) { store, _ async throws in
            try await store.write(caller: nil) { try $0.insert(Fixtures.post("p1")) }
            let started = DispatchSemaphore(value: 0)
            let reader = Task {
                try await store.read { transaction in
                    started.signal()
                    while true {
                        _ = try transaction.count(className: "Post")
                    }
                }
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    started.wait()
                    continuation.resume()
                }
            }
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
            // The connection is usable afterwards.
            #expect(try await store.read { try $0.count(className: "Post") } == 1)
        }
    }

    @Test func aReadCancelledBeforeItStartsNeverRuns() async throws {
        try await TemporaryDatabase.withStore(readerCount: 1) { store, _ async throws in
            let release = DispatchSemaphore(value: 0)
            let started = DispatchSemaphore(value: 0)
            // Occupies the only reader thread.
            let busy = Task {
                try await store.read { _ in
                    started.signal()
                    release.wait()
                }
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    started.wait()
                    continuation.resume()
                }
            }
            let ran = RanFlag()
            let queued = Task {
                try await store.read { _ in ran.set() }
            }
            queued.cancel()
            release.signal()
            try await busy.value
            await #expect(throws: CancellationError.self) { try await queued.value }
            #expect(!ran.value)
        }
    }

    @Test func closeFinishesQueuedWritesThenRejectsWork() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let store = try await database.open()
        let writes = (0..<20).map { index in
            Task { try await store.write(caller: nil) { try $0.insert(Fixtures.post("p\(index)")) } }
        }
        // Let the writes get queued before closing.
        while store.statistics.enqueuedWrites < 20 { await Task.yield() }
        await store.close()
        for write in writes {
            try await write.value
        }

        let writeError = await #expect(throws: StoreError.self) {
            try await store.write(caller: nil) { try $0.insert(Fixtures.post("late")) }
        }
        #expect(writeError?.code == .closed)
        let readError = await #expect(throws: StoreError.self) {
            try await store.read { try $0.count(className: "Post") }
        }
        #expect(readError?.code == .closed)
        let journalError = await #expect(throws: StoreError.self) { try await store.journal(after: 0, limit: 1) }
        #expect(journalError?.code == .closed)
        await store.close()  // a second close is harmless

        // Close checkpointed the WAL into the database file.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
        let reopened = try await database.open()
        #expect(try await reopened.read { try $0.count(className: "Post") } == 20)
        await reopened.close()
    }

    @Test func concurrentClosesAllReturn() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let store = try await database.open()
        try await store.write(caller: nil) { try $0.insert(Fixtures.post("p1")) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { await store.close() }
            }
        }
        let error = await #expect(throws: StoreError.self) { try await store.read { try $0.count(className: "Post") } }
        #expect(error?.code == .closed)
    }

    @Test func aTransactionUsedOutsideItsClosureTraps() async throws {
        // The child process traps, so the parent owns the folder and removes it.
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let path = database.path
        await #expect(processExitsWith: .failure) { [path = path as String] in
            let store = try await SQLiteStore.open(.init(path: path))
            let leaked = try await store.read { LeakedTransaction($0) }
            _ = try leaked.transaction.count(className: "Post")
        }
    }

    @Test func openingAnUnusablePathFails() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let error = await #expect(throws: StoreError.self) {
            try await SQLiteStore.open(.init(path: database.directory.path + "/missing/dir/app.sqlite"))
        }
        #expect(error?.code == .io)
    }
}

/// A flag set from a reader thread.
final class RanFlag: @unchecked Sendable {
    // Invariant: `flag` is only touched under `lock`.
    private let lock = NSLock()
    private var flag = false

    func set() { lock.withLock { flag = true } }
    var value: Bool { lock.withLock { flag } }
}

/// Smuggles a transaction out of its closure, which the store must trap on.
struct LeakedTransaction: @unchecked Sendable {
    // Invariant: none; this exists only to break the rule in an exit test.
    let transaction: any StoreReadTransaction

    init(_ transaction: any StoreReadTransaction) {
        self.transaction = transaction
    }
}
