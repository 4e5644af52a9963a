import BmobStore
import BmobWire
import Synchronization
import Testing

/// The commit feed realtime readers rely on: the journal head after each commit, and observers told of
/// commits that appended journal rows (and only those).
@Suite struct StoreCommitFeedTests {
    @Test(arguments: StoreEngine.allCases)
    func headFollowsCommitsAndObserversHearOfThem(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            #expect(store.committedJournalSeq == 0)
            let heard = Mutex<[Int64]>([])
            store.observeCommits { seq in heard.withLock { $0.append(seq) } }
            // The first insert creates the class: its schema entry, then the object's.
            try await store.write(caller: "test") { try $0.insert(Fixtures.post("a0000000001")) }
            #expect(store.committedJournalSeq == 2)
            try await store.write(caller: "test") { transaction in
                try transaction.insert(Fixtures.post("a0000000002"))
                try transaction.insert(Fixtures.post("a0000000003"))
            }
            #expect(store.committedJournalSeq == 4)
            #expect(heard.withLock { $0 } == [2, 4])
            // Every entry the head announces is readable.
            #expect(try await store.journal(after: 0, limit: 10).last?.seq == store.committedJournalSeq)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func rolledBackWritesAnnounceNothing(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let heard = Mutex(0)
            store.observeCommits { _ in heard.withLock { $0 += 1 } }
            await #expect(throws: Rollback.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.insert(Fixtures.post("b0000000001"))
                    throw Rollback()
                }
            }
            #expect(store.committedJournalSeq == 0)
            #expect(heard.withLock { $0 } == 0)
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func theHeadSurvivesReopening(engine: StoreEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let first = try await database.open()
        try await first.write(caller: nil) { try $0.insert(Fixtures.post("c0000000001")) }
        try await first.write(caller: nil) { try $0.insert(Fixtures.post("c0000000002")) }
        await first.close()
        let second = try await database.open()
        #expect(second.committedJournalSeq == 3)
        await second.close()
    }
}
