import BmobStore
import BmobWire
import Synchronization
import Testing

/// The journal's contract (``Store``, "The journal's order") and what it records beyond objects: schema
/// changes, relation members, and everything a class drop removes.
@Suite("Store journal")
struct StoreJournalTests {
    private typealias F = QueryFixtures

    /// Writers commit concurrently (single writes, two-object writes, rerunnable writes, writes that roll back)
    /// while a reader tails the journal with small pages, keeping the last `seq` it saw as its cursor. If an entry
    /// ever appeared below a cursor the reader had passed, the reader would miss it; so the reader must end up with
    /// exactly the whole journal, in increasing `seq`, and each write's entries side by side.
    @Test(arguments: StoreEngine.allCases)
    func aReaderNeverSeesAGapFilledLater(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let writers = 8
            let writesPerWriter = 30
            let done = Flag()
            let reader = Task { () throws -> [JournalEntry] in
                var seen: [JournalEntry] = []
                var cursor: Int64 = 0
                while true {
                    let finished = done.isSet
                    let head = store.committedJournalSeq
                    let limit = 7
                    let page = try await store.journal(after: cursor, limit: limit)
                    var previous = cursor
                    for entry in page {
                        #expect(entry.seq > previous, "seq must grow along the journal")
                        previous = entry.seq
                    }
                    seen += page
                    cursor = page.last?.seq ?? cursor
                    // Every entry up to the head read before the page is readable.
                    if page.count < limit { #expect(cursor >= head, "entries up to the committed head are readable") }
                    if finished && page.count < limit { return seen }
                    if page.isEmpty { await Task.yield() }
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        for write in 0..<writesPerWriter {
                            let id = "w\(writer)x\(write)"
                            switch write % 4 {
                            case 0:
                                try await store.write(caller: id) { try $0.insert(F.object("Item", id, ["n": 1])) }
                            case 1:
                                try await store.write(caller: id) { transaction in
                                    try transaction.insert(F.object("Item", id + "a", ["n": 1]))
                                    try transaction.insert(F.object("Item", id + "b", ["n": 2]))
                                }
                            case 2:
                                try await store.write(caller: id, rerunnable: true) { transaction in
                                    try transaction.insert(F.object("Item", id, ["n": 3]))
                                }
                            default:
                                await #expect(throws: Rollback.self) {
                                    try await store.write(caller: id) { transaction in
                                        try transaction.insert(F.object("Item", id, ["n": 4]))
                                        throw Rollback()
                                    }
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            done.set()
            let seen = try await reader.value

            let all = try await store.journal(after: 0, limit: 10_000)
            #expect(seen == all)
            #expect(all.last?.seq == store.committedJournalSeq)
            #expect(Set(all.map(\.seq)).count == all.count)
            // Every kept write's objects, none of the rolled-back ones, and the class's creation before them all.
            var expected: Set<String> = []
            for writer in 0..<writers {
                for write in 0..<writesPerWriter {
                    let id = "w\(writer)x\(write)"
                    switch write % 4 {
                    case 1: expected.formUnion([id + "a", id + "b"])
                    case 3: break
                    default: expected.insert(id)
                    }
                }
            }
            let creates = all.filter { $0.op == .create }
            #expect(Set(creates.compactMap(\.objectId)) == expected)
            #expect(creates.count == expected.count)
            #expect(all.first?.op == .schema)
            #expect(all.count == expected.count + 1)
            // A write's entries commit together: the two creates of a pair write are neighbours.
            for entry in creates where entry.objectId?.hasSuffix("a") == true {
                let index = try #require(all.firstIndex(of: entry))
                #expect(all[index + 1].objectId == String(entry.objectId!.dropLast()) + "b")
            }
        }
    }

    /// Set once the writers are done; the reader reads what remains, then stops.
    private final class Flag: Sendable {
        private let value = Atomic(false)

        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }

        func set() {
            value.store(true, ordering: .sequentiallyConsistent)
        }
    }
}
