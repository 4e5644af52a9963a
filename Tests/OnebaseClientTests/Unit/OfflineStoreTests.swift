import Foundation
@testable import OnebaseClient
import Testing

/// The offline store's files (`sync.md` §2.6): eviction of the oldest results, atomic files that survive a restart,
/// damaged files dropped, and the queue's order and write-ahead marks.
@Suite("OfflineStore")
struct OfflineStoreTests {
    @Test("keeps the newest maxCachedQueries results, on disk and across a restart")
    func eviction() throws {
        let directory = MachineHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OfflineStore(directory: directory, maxCachedQueries: 3)
        let start = Date(timeIntervalSince1970: 1000)
        for index in 0..<5 { store.saveCache("q\(index)", value: .int(Int64(index)), user: "u", now: start) }
        // Saving q1 again makes it the newest.
        store.saveCache("q2", value: "again", user: "u", now: start)
        #expect(store.cachedCount == 3)
        #expect(store.cachedValue("q0", user: "u") == nil && store.cachedValue("q1", user: "u") == nil)
        #expect(store.cachedValue("q2", user: "u") == "again" && store.cachedValue("q4", user: "u") == 4)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cache").path)
        #expect(files.count == 3 && files.allSatisfy { $0.hasSuffix(".json") && !$0.hasPrefix(".") })

        let reopened = OfflineStore(directory: directory, maxCachedQueries: 2)
        #expect(reopened.cachedCount == 2)
        #expect(reopened.cachedValue("q3", user: "u") == nil && reopened.cachedValue("q2", user: "u") == "again")
        // A record belongs to its user.
        #expect(reopened.cachedValue("q2", user: "someone else") == nil)
    }

    @Test("damaged or stray files in the cache folder are dropped at launch")
    func damagedFiles() throws {
        let directory = MachineHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OfflineStore(directory: directory)
        store.saveCache("good", value: ["a": 1], user: "", now: Date())
        let cache = directory.appendingPathComponent("cache")
        try Data("{\"token\":".utf8).write(to: cache.appendingPathComponent("broken.json"))
        try Data("partial".utf8).write(to: cache.appendingPathComponent(".tmp-write"))
        let reopened = OfflineStore(directory: directory)
        #expect(reopened.cachedValue("good", user: "") == ["a": 1])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).count == 1)
        reopened.clearCache()
        #expect(reopened.cachedCount == 0 && OfflineStore(directory: directory).cachedCount == 0)
    }

    @Test("the queue keeps its order and its write-ahead sent marks across a restart")
    func queue() {
        let directory = MachineHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OfflineStore(directory: directory)
        let first = store.enqueue(name: "notes:add", args: ["n": 1], owner: "u", now: Date())
        let second = store.enqueue(name: "notes:add", args: ["n": 2], owner: nil, now: Date())
        let third = store.enqueue(name: "notes:add", args: ["n": 3], owner: "u", now: Date())
        store.markSent(first)
        store.removeQueued([second])
        let entries = OfflineStore(directory: directory).queuedMutations
        #expect(entries.map(\.localId) == [first, third])
        #expect(entries.map(\.state) == [.sent, .pending])
        #expect(entries[0].args == ["n": 1] && entries[0].ownerUserId == "u" && entries[0].seq < entries[1].seq)
    }
}
