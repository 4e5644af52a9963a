import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Synchronization
import Testing

/// Group commit without a savepoint per write: rerunnable writes run again when a write of their group fails
/// after changing the database; writes that must not run twice never do. On PostgreSQL a rerunnable write's
/// creates go without waiting for their answers, so a failing create is found out later (the next statement or
/// the commit), and the group runs again with a savepoint per write.
@Suite("Store rerunnable writes")
struct StoreRerunTests {
    /// What one queued write does in its body.
    enum Step: Sendable {
        /// Inserts its post.
        case insert
        /// Inserts its post, then throws.
        case insertThenFail
        /// Throws before touching the database.
        case failFirst
        /// Inserts a post whose objectId is taken (``StoreRerunTests/takenId``).
        case insertTaken
        /// Inserts its post, then counts the posts: a statement that waits for an answer after a create.
        case insertThenCount
    }

    /// The objectId every group's store already holds before the group runs.
    static let takenId = "taken"

    /// The writer's counters of either engine's store.
    static func statistics(_ store: any Store) -> StoreWriterStatistics {
        if let store = store as? PostgresStore { return store.statistics }
        return (store as! SQLiteStore).statistics
    }

    /// How many times each write's body ran, by post id.
    final class Runs: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        func record(_ id: String) { counts.withLock { $0[id, default: 0] += 1 } }
        /// How many times each of `ids` ran, in order.
        func counts(_ ids: [String]) -> [Int] { counts.withLock { counts in ids.map { counts[$0] ?? 0 } } }
    }

    /// Holds the writer with a first write until every write of `plan` is queued, in order, so they share
    /// one group; returns which writes succeeded, by post id.
    static func runGroup(
        _ store: any Store, _ plan: [(id: String, step: Step, rerunnable: Bool)], runs: Runs
    ) async throws -> [String: Bool] {
        try await store.write(caller: "setup") { try $0.insert(Fixtures.post(takenId)) }
        let before = statistics(store).enqueuedWrites
        let expected = before + 1 + plan.count
        let started = RanFlag()
        let blocker = Task {
            try await store.write(caller: "blocker") { transaction in
                started.set()
                let deadline = Date().addingTimeInterval(120)
                while statistics(store).enqueuedWrites < expected, Date() < deadline { usleep(1000) }
                try transaction.insert(Fixtures.post("blocker"))
            }
        }
        // The blocker runs alone: a write that must not run twice would give every later one of its group a savepoint.
        while !started.value { await Task.yield() }
        var tasks: [(String, Task<Bool, Never>)] = []
        for (index, write) in plan.enumerated() {
            let task = Task {
                do {
                    try await store.write(caller: JournalAuthor(caller: write.id), rerunnable: write.rerunnable) { transaction in
                        runs.record(write.id)
                        switch write.step {
                        case .failFirst: throw Rollback()
                        case .insertTaken: try transaction.insert(Fixtures.post(takenId))
                        default: try transaction.insert(Fixtures.post(write.id))
                        }
                        if case .insertThenFail = write.step { throw Rollback() }
                        if case .insertThenCount = write.step {
                            #expect(try transaction.count(className: "Post") >= 3, "setup's, the blocker's and its own")
                        }
                    }
                    return true
                } catch {
                    return false
                }
            }
            tasks.append((write.id, task))
            // Queued one after another, so the group keeps the plan's order.
            while statistics(store).enqueuedWrites < before + 2 + index { await Task.yield() }
        }
        try await blocker.value
        var results: [String: Bool] = [:]
        for (id, task) in tasks { results[id] = await task.value }
        return results
    }

    /// The stored post ids and the journal's object ids, which must agree and have contiguous numbers.
    static func stored(_ store: any Store) async throws -> Set<String> {
        let entries = try await store.journal(after: 0, limit: 1000)
        #expect(entries.map(\.seq) == Array(1...Int64(entries.count)))
        let journaled = entries.filter { $0.op == .create }.compactMap(\.objectId)
        #expect(Set(journaled).count == journaled.count, "no write journaled twice")
        let count = try await store.read { try $0.count(className: "Post") }
        #expect(count == journaled.count)
        return Set(journaled)
    }

    /// One group's plan and what must come of it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var plan: [(id: String, step: Step, rerunnable: Bool)]
        /// The writes that fail; the others succeed.
        var failing: Set<String>
        /// How many times each write's body runs, in plan order.
        var runs: [Int]
        var rerunGroups: Int
        /// ``runs`` and ``rerunGroups`` on PostgreSQL when they differ (a failing create found out late).
        var onPostgres: (runs: [Int], rerunGroups: Int)?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // a and b ran before f1 failed, and again; the rerun gives each write a savepoint, so f2's failure is
        // undone alone and nothing runs a third time.
        Case(
            name: "a rerunnable write failing after it wrote rolls the group back; the others run again and commit once",
            plan: [("a", .insert, true), ("b", .insert, true), ("f1", .insertThenFail, true), ("f2", .insertThenFail, true),
                   ("c", .insert, true)],
            failing: ["f1", "f2"], runs: [2, 2, 1, 1, 1], rerunGroups: 1),
        Case(
            name: "a rerunnable write failing before it wrote undoes nothing and reruns nothing",
            plan: [("a", .insert, true), ("v", .failFirst, true), ("c", .insert, true)],
            failing: ["v"], runs: [1, 1, 1], rerunGroups: 0),
        Case(
            name: "after a write that must not run twice, later writes get savepoints and nothing runs again",
            plan: [("a", .insert, true), ("once", .insert, false), ("f", .insertThenFail, true), ("c", .insert, true)],
            failing: ["f"], runs: [1, 1, 1, 1], rerunGroups: 0),
        Case(
            name: "a write that must not run twice, failing after it wrote, is undone alone by its savepoint",
            plan: [("a", .insert, true), ("once", .insertThenFail, false), ("c", .insert, true)],
            failing: ["once"], runs: [1, 1, 1], rerunGroups: 0),
        // SQLite answers the taken id at once, and the failed insert changed nothing. PostgreSQL finds out at the
        // commit: everything runs again, each in a savepoint, and only then is the failure the write's own.
        Case(
            name: "a create of a taken objectId fails alone; the others commit once",
            plan: [("a", .insert, true), ("t", .insertTaken, true), ("c", .insert, true)],
            failing: ["t"], runs: [1, 1, 1], rerunGroups: 0, onPostgres: ([2, 2, 2], 1)),
        // On PostgreSQL the count waits for an answer, which brings t's failure: the group runs again.
        Case(
            name: "a statement that waits after a failed create runs again with the group, and sees its own create",
            plan: [("t", .insertTaken, true), ("r", .insertThenCount, true), ("c", .insert, true)],
            failing: ["t"], runs: [1, 1, 1], rerunGroups: 0, onPostgres: ([2, 2, 1], 1)),
        // v's own failure reads the answers in flight: t's failure aborted the transaction, so the others run
        // again in savepoints; v fails with its own error, once.
        Case(
            name: "a write failing on its own after a failed create keeps its own error",
            plan: [("a", .insert, true), ("t", .insertTaken, true), ("v", .failFirst, true), ("c", .insert, true)],
            failing: ["t", "v"], runs: [1, 1, 1, 1], rerunGroups: 0, onPostgres: ([2, 2, 1, 1], 1)),
        // A write that must not run twice has a savepoint, whose SAVEPOINT reads the answers in flight first.
        Case(
            name: "a failed create before a write that must not run twice is found out before that write starts",
            plan: [("t", .insertTaken, true), ("once", .insert, false), ("c", .insert, true)],
            failing: ["t"], runs: [1, 1, 1], rerunGroups: 0, onPostgres: ([2, 1, 1], 1)),
    ]

    @Test(arguments: StoreEngine.allCases, cases)
    func group(_ engine: StoreEngine, _ test: Case) async throws {
        try await engine.withStore { store, _ async throws in
            let runs = Runs()
            let results = try await Self.runGroup(store, test.plan, runs: runs)
            let ids = test.plan.map(\.id)
            #expect(results == Dictionary(uniqueKeysWithValues: ids.map { ($0, !test.failing.contains($0)) }))
            let kept = ids.filter { !test.failing.contains($0) }
            #expect(try await Self.stored(store) == Set([Self.takenId, "blocker"] + kept))
            let expected: (runs: [Int], rerunGroups: Int) =
                engine == .postgres ? test.onPostgres ?? (test.runs, test.rerunGroups) : (test.runs, test.rerunGroups)
            #expect(runs.counts(ids) == expected.runs)
            #expect(Self.statistics(store).rerunGroups == expected.rerunGroups)
            #expect(Self.statistics(store).failedWrites == test.failing.count)
        }
    }

    @Test("a rerun returns the last run's result and keeps the schema each write recorded", arguments: StoreEngine.allCases)
    func rerunKeepsResultsAndSchema(_ engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let counter = Mutex(0)
            let before = Self.statistics(store).enqueuedWrites
            let started = RanFlag()
            let blocker = Task {
                try await store.write(caller: nil) { _ in
                    started.set()
                    let deadline = Date().addingTimeInterval(120)
                    while Self.statistics(store).enqueuedWrites < before + 3, Date() < deadline { usleep(1000) }
                }
            }
            while !started.value { await Task.yield() }
            let first = Task {
                try await store.write(caller: nil, rerunnable: true) { transaction in
                    try transaction.recordFields(className: "Post", fields: ["kept": .init(type: .string)])
                    try transaction.insert(Fixtures.post("kept"))
                    return counter.withLock { value in
                        value += 1
                        return value
                    }
                }
            }
            while Self.statistics(store).enqueuedWrites < before + 2 { await Task.yield() }
            let failing = Task {
                try await store.write(caller: nil, rerunnable: true) { transaction in
                    try transaction.recordFields(className: "Post", fields: ["dropped": .init(type: .number)])
                    throw Rollback()
                }
            }
            try await blocker.value
            // The first write ran twice; its caller gets the second run's value.
            #expect(try await first.value == 2)
            await #expect(throws: Rollback.self) { try await failing.value }
            let schema = try await store.read { try $0.schema(className: "Post") }
            #expect(Set(schema.keys) == ["kept"])
            #expect(try await Self.stored(store) == ["kept"])
        }
    }
}
