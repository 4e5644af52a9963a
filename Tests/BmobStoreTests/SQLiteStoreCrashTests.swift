import BmobIO
import BmobStore
import BmobTesting
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("SQLiteStore crash safety", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct SQLiteStoreCrashTests {
    @Test(arguments: [SQLiteStore.SynchronousMode.normal, .full])
    func killedWriterLosesNoAcknowledgedWrite(mode: SQLiteStore.SynchronousMode) async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let writer = try #require(
            TestExecutables.url(named: "bmob-crash-writer"), "bmob-crash-writer not found next to the test binary")
        let outcome = try await KilledChild.run(
            writer, arguments: [database.path, "8", mode == .full ? "full" : "normal"],
            killWhen: { $0.count(where: { $0.hasPrefix("ack ") }) >= 300 })
        #expect(outcome.killedBySignal == SIGKILL, "the child must die by SIGKILL, not exit on its own")
        let acknowledged = outcome.lines.filter { $0.hasPrefix("ack ") }.map { String($0.dropFirst(4)) }
        #expect(acknowledged.count >= 300)

        let store = try await database.open()
        let missing = try await store.read { transaction in
            try acknowledged.filter { try transaction.fetch(className: "CrashItem", objectId: $0) == nil }
        }
        #expect(missing.isEmpty, "acknowledged writes lost: \(missing.prefix(10))")

        let journal = try await store.journal(after: 0, limit: 1_000_000)
        let journaled = journal.filter { $0.op == .create && $0.className == "CrashItem" }.compactMap(\.objectId)
        #expect(Set(acknowledged).isSubset(of: Set(journaled)))
        // Data and journal committed together: exactly one journal row per stored object.
        #expect(try await store.read { try $0.count(className: "CrashItem") } == journaled.count)
        #expect(Set(journaled).count == journaled.count)
        #expect(journal.map(\.seq) == Array(1...Int64(journal.count)))
        await store.close()
    }
}
