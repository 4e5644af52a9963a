import BmobStore
import BmobTesting
import BmobWire
import Foundation
import Testing

/// `bmob migrate`'s engine: an SQLite database made through the `Store` API copied into a fresh PostgreSQL schema,
/// read back through a ``PostgresStore``; a second run, interrupted runs and refused rows.
@Suite("StoreMigration", .enabled(if: TestPostgres.isSelected, "runs in the PostgreSQL pass of make test (BMOB_TEST_ENGINE=postgres)"))
struct StoreMigrationTests {
    /// One SQLite database with a bit of everything, and what its store answered before it closed.
    struct Source {
        let database: TemporaryDatabase
        let applicationId: String
        let journal: [JournalEntry]
        let smsId: Int64

        func remove() {
            database.remove()
            TestPostgres.dropSchema(of: applicationId)
        }

        func migration(pageSize: Int = 500, stopAfterRows: Int? = nil) throws -> StoreMigration {
            StoreMigration(
                sqlitePath: database.path, postgresURL: try TestPostgres.url(), applicationId: applicationId,
                pageSize: pageSize, stopAfterRows: stopAfterRows)
        }

        func openPostgres() async throws -> PostgresStore {
            try await PostgresStore.open(
                PostgresStore.Configuration(
                    url: try TestPostgres.url(), applicationId: applicationId, readerCount: 2,
                    listenerPollMilliseconds: 50))
        }
    }

    static let date: JSONValue = ["__type": "Date", "iso": "2024-05-06 07:08:09"]
    static let publicRead: JSONValue = ["*": ["read": true], "u1": ["read": true, "write": true]]

    private func makeSource(hostile: Bool = false) async throws -> Source {
        let database = try TemporaryDatabase()
        let clock = TestClock()
        let store = try await database.open(clock: clock)
        let applicationId = "migrate_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        var smsId: Int64 = 0
        do {
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "_User",
                    fields: ["email": FieldSchema(type: .string), "birthday": FieldSchema(type: .date)])
                try transaction.createIndex(className: "_User", paths: ["email"], unique: true)
                try transaction.insert(
                    StoredObject(
                        className: "_User", objectId: "u1", createdAt: 1_700_000_000_123, updatedAt: 1_700_000_555_456,
                        acl: Self.publicRead, fields: ["email": "a@example.com", "birthday": Self.date, "username": "ann"]))
                try transaction.insert(
                    StoredObject(
                        className: "_User", objectId: "u2", createdAt: 1_700_000_000_200, updatedAt: 1_700_000_000_200,
                        fields: ["email": "b@example.com", "username": "bob"]))
                try transaction.setCredential(userId: "u1", hash: "$scrypt$hash-of-u1")
                try transaction.setCredential(userId: "u2", hash: "$scrypt$hash-of-u2")
                try transaction.insertSession(
                    StoredSession(tokenHash: "token-1", userId: "u1", createdAt: 1_700_000_001_000, expiresAt: 1_800_000_000_000))
                try transaction.insertSession(
                    StoredSession(tokenHash: "token-2", userId: "u2", createdAt: 1_700_000_002_000, expiresAt: 1_800_000_000_000))
            }
            clock.now += 1_000
            try await store.write(caller: JournalAuthor(caller: "user:u1", door: "rest")) { transaction in
                for index in 0..<25 {
                    try transaction.insert(
                        StoredObject(
                            className: "Post", objectId: String(format: "post%03d", index), createdAt: 1_700_000_100_000 + Int64(index),
                            updatedAt: 1_700_000_200_000 + Int64(index), acl: index % 2 == 0 ? Self.publicRead : nil,
                            fields: ["title": .string("post \(index)"), "rank": .int(Int64(index)), "when": Self.date,
                                     "tags": ["a", "b"], "author": ["__type": "Pointer", "className": "_User", "objectId": "u1"]]))
                }
                try transaction.addRelation(
                    className: "Post", objectId: "post000", key: "likes",
                    targets: [PointerValue(className: "_User", objectId: "u1"), PointerValue(className: "_User", objectId: "u2")])
                try transaction.setClassPermissions(className: "Post", permissions: ["find": ["*": true], "create": ["u1": true]])
                try transaction.insert(StoredObject(className: "Comment", objectId: "c1", createdAt: 5, updatedAt: 6, fields: ["text": "hi"]))
                try transaction.update(StoredObject(className: "Comment", objectId: "c1", createdAt: 5, updatedAt: 7, fields: ["text": "hello"]))
            }
            smsId = try await store.write(caller: nil) { transaction in
                try transaction.insertEmailToken(
                    StoredEmailToken(
                        tokenHash: "mail-1", purpose: .emailVerification, userId: "u1", email: "a@example.com",
                        createdAt: 1_700_000_003_000, expiresAt: 1_700_086_403_000))
                for at in [Int64(10), 10, 11, 12] {
                    try transaction.recordRateEvent(kind: "login", subject: "u1", at: at)
                }
                try transaction.recordRateEvent(kind: "sms", subject: "+8613800000000", at: 10)
                return try transaction.insertSmsCode(
                    StoredSmsCode(
                        phone: "+8613800000000", code: "123456", template: "register", createdAt: 1_700_000_004_000,
                        expiresAt: 1_700_000_604_000, failedAttempts: 1, delivery: .sent))
            }
            if hostile {
                try await store.write(caller: nil) { transaction in
                    try transaction.insert(
                        StoredObject(className: "Hostile", objectId: "h1", createdAt: 1, updatedAt: 1, fields: ["text": "a\u{0}b"]))
                    try transaction.insert(
                        StoredObject(className: "Hostile", objectId: "h2", createdAt: 1, updatedAt: 1, fields: ["text": "fine"]))
                    try transaction.setCredential(userId: "u3", hash: "nul\u{0}hash")
                }
            }
            let journal = try await store.journal(after: 0, limit: 10_000)
            await store.close()
            return Source(database: database, applicationId: applicationId, journal: journal, smsId: smsId)
        } catch {
            await store.close()
            database.remove()
            throw error
        }
    }

    @Test("every table is copied: objects, index, permissions, relations, accounts, verification and the journal")
    func copiesEverything() async throws {
        let source = try await makeSource()
        defer { source.remove() }
        var seen: [StoreMigrationProgress] = []
        let report = try source.migration(pageSize: 7).run { seen.append($0) }
        #expect(report.isComplete, "\(report.counts) \(report.failures)")
        #expect(report.failureCount == 0)
        #expect(seen.last?.copiedRows == seen.last?.totalRows)
        let counts = Dictionary(uniqueKeysWithValues: report.counts.map { ($0.table, $0) })
        #expect(counts["Post"]?.postgresRows == 25)
        #expect(counts["_User"]?.postgresRows == 2)
        #expect(counts["__rate_event"]?.postgresRows == 5)
        #expect(counts["__journal"]?.postgresRows == source.journal.count)
        #expect(counts["__index"]?.postgresRows == 1)

        let store = try await source.openPostgres()
        do {
            let user = try await store.read { try $0.fetch(className: "_User", objectId: "u1") }
            #expect(user?.createdAt == 1_700_000_000_123)
            #expect(user?.updatedAt == 1_700_000_555_456)
            #expect(user?.acl == Self.publicRead)
            #expect(user?.fields["birthday"] == Self.date)
            let post = try await store.read { try $0.fetch(className: "Post", objectId: "post004") }
            #expect(post?.fields["tags"] == ["a", "b"])
            #expect(post?.updatedAt == 1_700_000_200_004)
            #expect(try await store.read { try $0.count(className: "Post") } == 25)
            #expect(try await store.read { try $0.schema(className: "_User") }["birthday"] == FieldSchema(type: .date))
            #expect(try await store.read { try $0.classPermissions(className: "Post") } == ["find": ["*": true], "create": ["u1": true]])
            #expect(try await store.read { try $0.indexes(className: "_User").map(\.paths) } == [["email"]])
            #expect(
                Set(try await store.read { try $0.relationTargets(className: "Post", objectId: "post000", key: "likes") }.map(\.objectId))
                    == ["u1", "u2"])

            // The declared index is a real PostgreSQL index: queries find through it and it stays unique.
            let byEmail = FindQuery(className: "_User", condition: .field(path: "email", constraints: [.equalTo("b@example.com")]))
            #expect(try await store.read { try $0.find(byEmail) }.map(\.objectId) == ["u2"])
            let duplicate = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.insert(StoredObject(className: "_User", objectId: "u9", createdAt: 1, updatedAt: 1, fields: ["email": "a@example.com"]))
                }
            }
            #expect(duplicate?.code == .duplicate)

            // Accounts and verification.
            #expect(try await store.read { try $0.credential(userId: "u1") } == "$scrypt$hash-of-u1")
            #expect(
                try await store.read { try $0.session(tokenHash: "token-2") }
                    == StoredSession(tokenHash: "token-2", userId: "u2", createdAt: 1_700_000_002_000, expiresAt: 1_800_000_000_000))
            #expect(try await store.read { try $0.sessions(userId: "u1") }.map(\.tokenHash) == ["token-1"])
            let code = try await store.read { try $0.smsCode(smsId: source.smsId) }
            #expect(code?.code == "123456")
            #expect(code?.failedAttempts == 1)
            #expect(code?.delivery == .sent)
            #expect(try await store.read { try $0.emailToken(tokenHash: "mail-1") }?.email == "a@example.com")
            #expect(try await store.read { try $0.rateEvents(kind: "login", subject: "u1", since: 0) }.sorted() == [10, 10, 11, 12])

            // The journal keeps its seqs and contents, and new writes follow it.
            #expect(try await store.journal(after: 0, limit: 10_000) == source.journal)
            let newSmsId = try await store.write(caller: nil) { transaction in
                try transaction.insertSmsCode(
                    StoredSmsCode(phone: "+8613800000001", code: "654321", template: nil, createdAt: 1, expiresAt: 2))
            }
            #expect(newSmsId > source.smsId)
            try await store.write(caller: nil) { transaction in
                try transaction.insert(StoredObject(className: "Comment", objectId: "c2", createdAt: 8, updatedAt: 8, fields: [:]))
            }
            #expect(try await store.journal(after: 0, limit: 10_000).last?.seq == (source.journal.last?.seq ?? 0) + 1)
        } catch {
            await store.close()
            throw error
        }
        await store.close()

        // The PostgreSQL side now has a history of its own: copying again would mix the two.
        let ahead = #expect(throws: StoreError.self) { try source.migration().run() }
        #expect(ahead?.code == .incompatible)
    }

    @Test("a second run adds nothing and agrees")
    func secondRun() async throws {
        let source = try await makeSource()
        defer { source.remove() }
        let first = try source.migration().run()
        let second = try source.migration(pageSize: 3).run()
        #expect(first.isComplete)
        #expect(second.isComplete, "\(second.counts)")
        #expect(second.counts == first.counts)
    }

    @Test("runs stopped after any number of rows resume and finish without duplicates")
    func interruptedRuns() async throws {
        let source = try await makeSource()
        defer { source.remove() }
        var total = 0
        var stop = 1
        var interruptions = 0
        while true {
            do {
                let report = try source.migration(pageSize: 2, stopAfterRows: stop).run { total = $0.totalRows }
                // The hook did not fire: everything was copied already.
                #expect(report.isComplete, "\(report.counts)")
                break
            } catch let error as StoreError {
                #expect(error.code == .closed)
                interruptions += 1
            }
            stop += 3
            #expect(stop < 10 * max(total, 10), "the copy never finished")
            if stop >= 10 * max(total, 10) { break }
        }
        #expect(interruptions > 3)
        let report = try source.migration().run()
        #expect(report.isComplete, "\(report.counts)")
        let store = try await source.openPostgres()
        let journal = try await store.journal(after: 0, limit: 10_000)
        let events = try await store.read { try $0.rateEvents(kind: "login", subject: "u1", since: 0) }
        await store.close()
        #expect(journal == source.journal)
        #expect(events.sorted() == [10, 10, 11, 12])
    }

    @Test("rows PostgreSQL refuses (U+0000 in JSON and in text) are reported, the rest is copied")
    func hostileRows() async throws {
        let source = try await makeSource(hostile: true)
        defer { source.remove() }
        for _ in 0..<2 {
            let report = try source.migration(pageSize: 4).run()
            #expect(!report.isComplete)
            #expect(report.failureCount == 2)
            #expect(
                Set(report.failures.map { "\($0.table) \($0.key)" }) == ["Hostile h1", "__credential u3"], "\(report.failures)")
            #expect(report.failures.allSatisfy { $0.message.contains("U+0000") })
            let counts = Dictionary(uniqueKeysWithValues: report.counts.map { ($0.table, $0) })
            #expect(counts["Hostile"] == StoreMigrationTableCount(table: "Hostile", sqliteRows: 2, postgresRows: 1))
            #expect(counts["__credential"] == StoreMigrationTableCount(table: "__credential", sqliteRows: 3, postgresRows: 2))
            #expect(report.counts.filter { !$0.matches }.count == 2)
        }
        let store = try await source.openPostgres()
        let fine = try await store.read { try $0.fetch(className: "Hostile", objectId: "h2") }
        await store.close()
        #expect(fine?.fields["text"] == "fine")
    }
}
