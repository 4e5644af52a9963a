import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Synchronization
import Testing

/// Group commit without a savepoint per write: rerunnable writes run again when a write of their group fails
/// after changing the database; writes that must not run twice never do.
@Suite("SQLiteStore rerunnable writes", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLiteStoreRerunTests {
    /// What one queued write does in its body.
    enum Step: Sendable {
        /// Inserts its post.
        case insert
        /// Inserts its post, then throws.
        case insertThenFail
        /// Throws before touching the database.
        case failFirst
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
        _ store: SQLiteStore, _ plan: [(id: String, step: Step, rerunnable: Bool)], runs: Runs
    ) async throws -> [String: Bool] {
        let before = store.statistics.enqueuedWrites
        let expected = before + 1 + plan.count
        let started = RanFlag()
        let blocker = Task {
            try await store.write(caller: "blocker") { transaction in
                started.set()
                let deadline = Date().addingTimeInterval(120)
                while store.statistics.enqueuedWrites < expected, Date() < deadline { usleep(1000) }
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
                        if case .failFirst = write.step { throw Rollback() }
                        try transaction.insert(Fixtures.post(write.id))
                        if case .insertThenFail = write.step { throw Rollback() }
                    }
                    return true
                } catch {
                    return false
                }
            }
            tasks.append((write.id, task))
            // Queued one after another, so the group keeps the plan's order.
            while store.statistics.enqueuedWrites < before + 2 + index { await Task.yield() }
        }
        try await blocker.value
        var results: [String: Bool] = [:]
        for (id, task) in tasks { results[id] = await task.value }
        return results
    }

    /// The stored post ids and the journal's object ids, which must agree and have contiguous numbers.
    static func stored(_ store: SQLiteStore) async throws -> Set<String> {
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
    ]

    @Test(arguments: cases)
    func group(_ test: Case) async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            let runs = Runs()
            let results = try await Self.runGroup(store, test.plan, runs: runs)
            let ids = test.plan.map(\.id)
            #expect(results == Dictionary(uniqueKeysWithValues: ids.map { ($0, !test.failing.contains($0)) }))
            #expect(try await Self.stored(store) == Set(["blocker"] + ids.filter { !test.failing.contains($0) }))
            #expect(runs.counts(ids) == test.runs)
            #expect(store.statistics.rerunGroups == test.rerunGroups)
            #expect(store.statistics.failedWrites == test.failing.count)
        }
    }

    @Test("a rerun returns the last run's result and keeps the schema each write recorded")
    func rerunKeepsResultsAndSchema() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            let counter = Mutex(0)
            let before = store.statistics.enqueuedWrites
            let started = RanFlag()
            let blocker = Task {
                try await store.write(caller: nil) { _ in
                    started.set()
                    let deadline = Date().addingTimeInterval(120)
                    while store.statistics.enqueuedWrites < before + 3, Date() < deadline { usleep(1000) }
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
            while store.statistics.enqueuedWrites < before + 2 { await Task.yield() }
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
