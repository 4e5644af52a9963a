import BmobCore
import BmobSDK
import BmobTesting
import BmobWire
import Dispatch
import Foundation
import Testing

extension EndToEnd {
    /// Per-object change history from the SDK (issue 19): `history`, `BmobChangeQuery`, `revert`,
    /// `deletedObjects` and `restore`, `Bmob.serverInfo()`, `isEditable`, `save()`'s result and the delegate
    /// facade, against the in-process server, including what the server refuses to strangers.
    @Suite("Object history", .timeLimit(.minutes(3)))
    @MainActor
    struct HistoryBehaviourTests {
        private static let password = "pw-history"

        /// Signs up a new user, who is then the current user.
        private func signUp(_ prefix: String) async throws -> (name: String, id: String) {
            _ = try await SDKFixture.server()
            let user = BmobUser()
            let name = prefix + "-" + String(UUID().uuidString.prefix(8)).lowercased()
            user.username = name
            user.password = Self.password
            try await user.signUp()
            return (name, try #require(user.objectId))
        }

        private func login(_ account: (name: String, id: String)) async throws {
            _ = try await BmobUser.login(username: account.name, password: Self.password)
        }

        /// An ACL granting read and write to one user only.
        private func privateACL(_ userId: String, publicRead: Bool = false) -> BmobACL {
            let acl = BmobACL()
            acl.setReadAccess(enabled: true, forUserId: userId)
            acl.setWriteAccess(enabled: true, forUserId: userId)
            if publicRead { acl.setReadAccess(enabled: true, forRole: .public) }
            return acl
        }

        /// The Bmob code of what `body` throws, or `nil` when it does not throw a ``BmobError``.
        private func code(_ body: () async throws -> Void) async -> Int? {
            do {
                try await body()
                return nil
            } catch let error as BmobError {
                return error.code
            } catch {
                return nil
            }
        }

        @Test("save() returns the names of the fields it sent")
        func saveReturnsSentFields() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let note = BmobObject(className: "HistSave", data: ["title": "a", "n": 1])
            #expect(try await note.save() == ["n", "title"])
            note["title"] = "b"
            #expect(try await note.save() == ["title"])
            let acl = BmobACL()
            acl.setReadAccess(enabled: true, forRole: .public)
            acl.setWriteAccess(enabled: true, forRole: .public)
            note.acl = acl
            note.increment("n")
            #expect(try await note.save() == ["ACL", "n"])
            #expect(try await note.save() == [])
            let id = try #require(note.objectId)
            let stored = try #require(try await SDKFixture.restObject("HistSave", id))
            #expect(stored["n"] == 2)
            #expect(stored["title"] == "b")
        }

        @Test("history lists an object's changes newest first, with snapshots, fields and paging")
        func objectHistory() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let started = Date().addingTimeInterval(-2)
            let note = BmobObject(className: "HistNote", data: ["title": "v1", "body": "x"])
            try await note.save()
            let id = try #require(note.objectId)
            note["title"] = "v2"
            try await note.save()
            note.deleteField("body")
            try await note.save()

            let changes = try await note.history()
            #expect(changes.map(\.operation) == [.update, .update, .create])
            #expect(changes.map(\.seq) == changes.map(\.seq).sorted(by: >))
            #expect(Set(changes.map(\.seq)).count == 3)
            #expect(changes.allSatisfy { $0.objectId == id && $0.className == "HistNote" })
            #expect(changes.allSatisfy { $0.userId == nil && $0.date >= started && $0.date <= Date() + 2 })
            #expect(changes.allSatisfy { $0.id == $0.seq })

            let create = changes[2]
            #expect(create.before == nil)
            #expect(create.after?["title"] as? String == "v1")
            #expect(create.after?.objectId == id)

            let retitle = changes[1]
            #expect(retitle.changedFields == ["title"])
            #expect(retitle.before?["title"] as? String == "v1")
            #expect(retitle.after?["title"] as? String == "v2")
            #expect(retitle.after?["body"] as? String == "x")

            let removal = changes[0]
            #expect(removal.changedFields == ["body"])
            #expect(removal.before?["body"] as? String == "x")
            #expect(removal.after != nil)
            #expect(removal.after?["body"] == nil)

            // Each read of a snapshot is a fresh object: changing one leaves the change as it was.
            removal.after?["title"] = "changed locally"
            #expect(removal.after?["title"] as? String == "v2")

            #expect(try await note.history(limit: 1).map(\.seq) == [changes[0].seq])
            #expect(try await note.history(limit: 1, skip: 1).map(\.seq) == [changes[1].seq])
            #expect(try await note.history(limit: 10, skip: 3).isEmpty)

            let unsaved = BmobObject(className: "HistNote")
            await #expect(throws: BmobError.self) { _ = try await unsaved.history() }
            await #expect(throws: BmobError.self) { _ = try await note.history(limit: 0) }
        }

        @Test("BmobChangeQuery searches a class's history by operation, user, object, date and page")
        func classHistory() async throws {
            let author = try await signUp("hist-author")
            let first = BmobObject(className: "HistQuery", data: ["n": 1])
            try await first.save()
            let second = BmobObject(className: "HistQuery", data: ["n": 2])
            try await second.save()
            first["n"] = 10
            try await first.save()
            try await second.delete()
            BmobUser.logout()
            let third = BmobObject(className: "HistQuery", data: ["n": 3])
            try await third.save()
            let ids = (try #require(first.objectId), try #require(second.objectId), try #require(third.objectId))

            let all = try await BmobChangeQuery(className: "HistQuery").find()
            #expect(all.map(\.operation) == [.create, .delete, .update, .create, .create])
            #expect(all.map(\.objectId) == [ids.2, ids.1, ids.0, ids.1, ids.0])
            #expect(all.map(\.userId) == [nil, author.id, author.id, author.id, author.id])
            #expect(all[1].after == nil)
            #expect(all[1].before?["n"] as? Int == 2)

            let deletes = BmobChangeQuery(className: "HistQuery")
            deletes.operation = .delete
            #expect(try await deletes.find().map(\.objectId) == [ids.1])

            let byAuthor = BmobChangeQuery(className: "HistQuery")
            byAuthor.userId = author.id
            #expect(try await byAuthor.find().map(\.seq) == Array(all.dropFirst()).map(\.seq))

            let ofFirst = BmobChangeQuery(className: "HistQuery")
            ofFirst.objectId = ids.0
            #expect(try await ofFirst.find().map(\.seq) == all.filter { $0.objectId == ids.0 }.map(\.seq))

            let paged = BmobChangeQuery(className: "HistQuery")
            paged.limit = 2
            #expect(try await paged.find().map(\.seq) == all.prefix(2).map(\.seq))
            paged.skip = 2
            #expect(try await paged.find().map(\.seq) == all.dropFirst(2).prefix(2).map(\.seq))

            let since = BmobChangeQuery(className: "HistQuery")
            since.since = all[0].date
            let recent = try await since.find()
            #expect(recent.contains { $0.seq == all[0].seq })
            #expect(recent.allSatisfy { $0.date >= all[0].date })
            since.since = Date().addingTimeInterval(3600)
            #expect(try await since.find().isEmpty)

            let until = BmobChangeQuery(className: "HistQuery")
            until.until = all[4].date
            let early = try await until.find()
            #expect(early.contains { $0.seq == all[4].seq })
            #expect(early.allSatisfy { $0.date <= all[4].date })
            until.until = Date().addingTimeInterval(-3600)
            #expect(try await until.find().isEmpty)
        }

        @Test("revert puts an object back and fetches it; reverting the revert redoes the change")
        func revertAndRedo() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let note = BmobObject(className: "HistRevert", data: ["title": "v1", "n": 1])
            try await note.save()
            let id = try #require(note.objectId)
            note["title"] = "v2"
            note["n"] = 2
            note["extra"] = "x"
            try await note.save()

            let edit = try #require(try await note.history().first)
            #expect(edit.operation == .update)
            note["title"] = "unsaved local change"
            let changed = try await note.revert(toBefore: edit)
            #expect(Set(changed) == ["title", "n", "extra"])
            #expect(note.string(forKey: "title") == "v1")
            #expect(note.int(forKey: "n") == 1)
            #expect(note["extra"] == nil)
            #expect(note.hasUnsavedChanges == false)
            var stored = try #require(try await SDKFixture.restObject("HistRevert", id))
            #expect(stored["title"] == "v1")
            #expect(stored["extra"] == nil)
            #expect(Set(note.allKeys) == Set(stored.keys).subtracting(["objectId", "createdAt", "updatedAt", "ACL"]))
            #expect(note.updatedAt == stored["updatedAt"]?.stringValue.flatMap(BmobValueCoding.date(from:)))

            // The revert is an update of its own; undoing it brings the edit back.
            let history = try await note.history()
            #expect(history.count == 3)
            let revert = history[0]
            #expect(revert.operation == .update)
            #expect(revert.after?["title"] as? String == "v1")
            #expect(revert.door == "revert:\(edit.seq)")
            #expect(revert.changedFields == ["extra", "n", "title"])
            try await note.revert(toBefore: revert.seq)
            #expect(note.string(forKey: "title") == "v2")
            #expect(note.string(forKey: "extra") == "x")
            stored = try #require(try await SDKFixture.restObject("HistRevert", id))
            #expect(stored["title"] == "v2")
            #expect(stored["extra"] == "x")

            // ifUnchangedSince: refused with 409 when the object changed after the date, accepted when not.
            #expect(
                await code {
                    try await note.revert(toBefore: edit, ifUnchangedSince: Date(timeIntervalSinceNow: -3600))
                } == 409)
            #expect(note.string(forKey: "title") == "v2")
            try await note.revert(toBefore: edit, ifUnchangedSince: note.updatedAt)
            #expect(note.string(forKey: "title") == "v1")

            // A create has no version before it.
            let create = try #require(history.last)
            #expect(create.operation == .create)
            #expect(await code { try await note.revert(toBefore: create) } == 301)

            // A change of another object is refused before anything is sent.
            let other = BmobObject(className: "HistRevert", data: ["title": "other"])
            try await other.save()
            await #expect(throws: BmobError.self) { try await other.revert(toBefore: edit) }
        }

        @Test("deleted objects are listed with their last version; restore brings them back with their ids")
        func deletedAndRestore() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let one = BmobObject(className: "HistDeleted", data: ["title": "gone 1"])
            try await one.save()
            let two = BmobObject(className: "HistDeleted", data: ["title": "gone 2"])
            try await two.save()
            let kept = BmobObject(className: "HistDeleted", data: ["title": "kept"])
            try await kept.save()
            let (id1, id2) = (try #require(one.objectId), try #require(two.objectId))
            try await one.delete()
            try await two.delete()

            let deleted = try await BmobObject.deletedObjects(className: "HistDeleted")
            #expect(deleted.map(\.objectId) == [id2, id1])
            #expect(deleted.allSatisfy { $0.operation == .delete && $0.after == nil })
            #expect(deleted[0].before?["title"] as? String == "gone 2")
            #expect(deleted[0].before?.objectId == id2)
            #expect(
                try await BmobObject.deletedObjects(className: "HistDeleted", limit: 1, skip: 1).map(\.objectId) == [
                    id1
                ])
            #expect(try await SDKFixture.restObject("HistDeleted", id2) == nil)

            // From the change…
            let restored = try await deleted[0].restore()
            #expect(restored.objectId == id2)
            #expect(restored.string(forKey: "title") == "gone 2")
            #expect(try await SDKFixture.restObject("HistDeleted", id2)?["title"] == "gone 2")

            // …and from an object built from it.
            let last = try #require(deleted[1].before)
            try await last.restore()
            #expect(last.objectId == id1)
            #expect(last.string(forKey: "title") == "gone 1")
            #expect(last.createdAt != nil)
            #expect(try await SDKFixture.restObject("HistDeleted", id1)?["title"] == "gone 1")

            #expect(try await BmobObject.deletedObjects(className: "HistDeleted").isEmpty)
            // Restoring an object that is there is refused.
            #expect(await code { try await last.restore() } == 101)
            await #expect(throws: BmobError.self) { _ = try await BmobObject.deletedObjects(className: "") }
        }

        @Test("strangers may not read a private object's history, revert it or restore it")
        func strangersAreRefused() async throws {
            let owner = try await signUp("hist-owner")
            let secret = BmobObject(className: "HistPrivate", data: ["title": "secret"])
            secret.acl = privateACL(owner.id)
            try await secret.save()
            secret["title"] = "secret 2"
            try await secret.save()
            let shown = BmobObject(className: "HistPrivate", data: ["title": "shown"])
            shown.acl = privateACL(owner.id, publicRead: true)
            try await shown.save()
            shown["title"] = "shown 2"
            try await shown.save()
            let secretId = try #require(secret.objectId)
            let secretEdit = try #require(try await secret.history().first)
            let shownEdit = try #require(try await shown.history().first)

            let stranger = try await signUp("hist-stranger")
            let theirs = BmobObject(className: "HistPrivate")
            theirs.objectId = secretId
            #expect(await code { _ = try await theirs.history() } == 101)
            #expect(await code { try await theirs.revert(toBefore: secretEdit) } == 101)
            // Readable is not writable: the history shows, the revert is refused.
            let readable = BmobObject(className: "HistPrivate")
            readable.objectId = shown.objectId
            #expect(try await readable.history().count == 2)
            #expect(await code { try await readable.revert(toBefore: shownEdit) } == 101)
            let shownId = try #require(shown.objectId)
            #expect(try await SDKFixture.restObject("HistPrivate", shownId)?["title"] == "shown 2")
            // The class's history leaves the private object out.
            #expect(try await BmobChangeQuery(className: "HistPrivate").find().allSatisfy { $0.objectId != secretId })

            // Restore: the owner deletes the private object; the stranger neither sees its last version nor
            // brings it back, and the owner can.
            try await login(owner)
            try await secret.delete()
            try await login(stranger)
            let seen = try await BmobObject.deletedObjects(className: "HistPrivate")
            #expect(seen.first { $0.objectId == secretId }?.before == nil)
            let gone = BmobObject(className: "HistPrivate")
            gone.objectId = secretId
            #expect(await code { try await gone.restore() } == 101)
            BmobUser.logout()
            #expect(await code { try await gone.restore() } == 101)
            #expect(try await SDKFixture.restObject("HistPrivate", secretId) == nil)
            try await login(owner)
            let ownersView = try #require(
                try await BmobObject.deletedObjects(className: "HistPrivate").first { $0.objectId == secretId })
            #expect(ownersView.before?["title"] as? String == "secret 2")
            let back = try await ownersView.restore()
            #expect(back.string(forKey: "title") == "secret 2")
            BmobUser.logout()
        }

        @Test("isEditable follows the ACL, the current user and the roles fetched with the object")
        func editability() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            #expect(BmobObject(className: "HistEdit").isEditable)
            let open = BmobObject(className: "HistEdit", data: ["title": "open"])
            try await open.save()
            #expect(open.isEditable)
            let publicWrite = BmobACL()
            publicWrite.setReadAccess(enabled: true, forRole: .public)
            publicWrite.setWriteAccess(enabled: true, forRole: .public)
            open.acl = publicWrite
            try await open.save()
            #expect(open.isEditable)
            let readOnly = BmobObject(className: "HistEdit", data: ["title": "read only"])
            let publicRead = BmobACL()
            publicRead.setReadAccess(enabled: true, forRole: .public)
            readOnly.acl = publicRead
            try await readOnly.save()
            #expect(readOnly.isEditable == false)

            let member = try await signUp("hist-member")
            let outsider = try await signUp("hist-outsider")
            let owner = try await signUp("hist-editor")
            let mine = BmobObject(className: "HistEdit", data: ["title": "mine"])
            mine.acl = privateACL(owner.id, publicRead: true)
            try await mine.save()
            #expect(mine.isEditable)

            let roleName = "HistEditors" + String(UUID().uuidString.prefix(8))
            let role = BmobRole(name: roleName)
            let memberObject = BmobObject(className: "_User")
            memberObject.objectId = member.id
            role.addUsers([memberObject])
            let roleACL = BmobACL()
            roleACL.setReadAccess(enabled: true, forRole: .public)
            roleACL.setWriteAccess(enabled: true, forUserId: owner.id)
            role.acl = roleACL
            try await role.save()
            let shared = BmobObject(className: "HistEdit", data: ["title": "editors"])
            let sharedACL = BmobACL()
            sharedACL.setReadAccess(enabled: true, forRole: .public)
            sharedACL.setWriteAccess(enabled: true, forRoleName: roleName)
            shared.acl = sharedACL
            try await shared.save()
            let sharedId = try #require(shared.objectId)

            BmobUser.logout()
            #expect(mine.isEditable == false)
            try await login(outsider)
            #expect(mine.isEditable == false)
            #expect(try await BmobQuery(className: "HistEdit").get(objectId: sharedId).isEditable == false)

            try await login(member)
            // Found by a query, the object knows no roles yet; fetched, it does, and the server agrees.
            let found = try #require(
                try await BmobQuery(className: "HistEdit").whereKey("title", equalTo: "editors").find().first)
            #expect(found.isEditable == false)
            try await found.fetch()
            #expect(found.isEditable)
            #expect(try await BmobQuery(className: "HistEdit").get(objectId: sharedId).isEditable)
            found["title"] = "edited by a member"
            try await found.save()
            BmobUser.logout()
        }

        @Test("Bmob.serverInfo() describes the server")
        func serverInfo() async throws {
            _ = try await SDKFixture.server()
            let info = try await Bmob.serverInfo()
            #expect(info.version?.isEmpty == false)
            #expect(info.supports("history"))
            #expect(info.capabilities.contains("history"))
            #expect((info.limits.batchSize ?? 0) > 0)
            #expect((info.limits.bodyBytes ?? 0) > 0)
            #expect(info.realtimeAddress?.isEmpty == false)
            #expect(info.rawJSON.contains("capabilities"))
        }

        @Test("server info and changes are read leniently")
        func lenientDecoding() throws {
            let info = BmobServerInfo(json: [
                "version": "9.9", "capabilities": ["history", 3, "future"], "limits": ["batchSize": 50, "new": true],
                "history": ["keepChanges": .null, "keepDays": 30], "unknown": ["a": 1],
            ])
            #expect(info.version == "9.9")
            #expect(info.capabilities == ["history", "future"])
            #expect(info.limits.batchSize == 50)
            #expect(info.limits.bodyBytes == nil)
            #expect(info.historyRetention.keepChanges == nil)
            #expect(info.historyRetention.keepDays == 30)
            #expect(info.realtimeAddress == nil)
            #expect(info.rawJSON.contains("unknown"))
            #expect(BmobServerInfo(json: .null).capabilities.isEmpty)

            let change = try BmobChange(
                json: [
                    "seq": 7, "op": "archive", "at": ["__type": "Date", "iso": "2026-01-02 03:04:05"], "user": .null,
                    "door": "rest", "objectId": "abc", "before": .null, "after": ["objectId": "abc", "n": 1],
                    "changed": .null, "extra": "ignored",
                ], className: "Thing")
            #expect(change.operation == BmobChange.Operation(rawValue: "archive"))
            #expect(change.operation != .update)
            #expect(change.className == "Thing")
            #expect(change.changedFields.isEmpty)
            #expect(change.date == BmobValueCoding.date(from: "2026-01-02 03:04:05"))
            #expect(change.after?.int(forKey: "n") == 1)
            #expect(change.before == nil)
            #expect(throws: BmobError.self) { try BmobChange(json: ["op": "create"], className: "Thing") }
        }

        @Test("the delegate facade reports every answer on the injected queue")
        func delegateFacade() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let queue = DispatchQueue(label: "history-delegate-tests")
            let recorder = HistoryRecorder(queue: queue)
            let client = BmobHistoryClient(delegate: recorder, callbackQueue: queue)
            var events = recorder.events.makeAsyncIterator()

            await client.connect().value
            guard case .valid(true)? = await events.next() else { Issue.record("no serverIsValid(true)"); return }
            #expect(client.serverInfo?.supports("history") == true)

            let note = BmobObject(className: "HistDelegate", data: ["title": "v1"])
            try await note.save()
            let id = try #require(note.objectId)
            note["title"] = "v2"
            try await note.save()

            client.getChanges(className: "HistDelegate", objectId: id)
            guard case .changes(let changes)? = await events.next() else { Issue.record("no changes"); return }
            #expect(changes.map(\.operation) == [.update, .create])

            client.revert(changes[0])
            guard case .reverted(let reverted, let undone)? = await events.next() else {
                Issue.record("no revert")
                return
            }
            #expect(undone.seq == changes[0].seq)
            #expect(reverted.objectId == id)
            #expect(reverted.string(forKey: "title") == "v1")

            try await note.delete()
            client.getDeletedObjects(className: "HistDelegate")
            guard case .deleted(let deleted)? = await events.next() else { Issue.record("no deleted objects"); return }
            let deletion = try #require(deleted.first { $0.objectId == id })
            #expect(deletion.before?["title"] as? String == "v1")

            client.restore(deletion)
            guard case .restored(let restored, let from)? = await events.next() else {
                Issue.record("no restore")
                return
            }
            #expect(from.seq == deletion.seq)
            #expect(restored.objectId == id)
            #expect(try await SDKFixture.restObject("HistDelegate", id)?["title"] == "v1")

            client.getDeletedObjects(className: "")
            guard case .failed(let error)? = await events.next() else { Issue.record("no error"); return }
            guard case .invalidParameter = error else { Issue.record("unexpected \(error)"); return }
            client.restore(deletion)
            guard case .failed(let refused)? = await events.next() else { Issue.record("no error"); return }
            #expect(refused.code != nil)

            #expect(recorder.offQueueCalls == 0)

            // The delegate is held weakly: once it is gone, answers go nowhere.
            var transient: HistoryRecorder? = HistoryRecorder(queue: queue)
            let orphaned = BmobHistoryClient(delegate: transient, callbackQueue: queue)
            weak let released = transient
            transient = nil
            #expect(released == nil)
            #expect(orphaned.delegate == nil)
            await orphaned.connect().value
            #expect(orphaned.serverInfo?.supports("history") == true)
        }
    }
}

/// A history delegate that turns every call into an event, and counts calls made off its queue. It is made and
/// read on the main actor; the client calls it on the test's queue, touching only the stream and the counter.
private final class HistoryRecorder: BmobHistoryDelegate {
    enum Event: Sendable {
        case valid(Bool)
        case changes([BmobChange])
        case deleted([BmobChange])
        case reverted(BmobObject, BmobChange)
        case restored(BmobObject, BmobChange)
        case failed(BmobError)
    }

    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let key = DispatchSpecificKey<Int>()
    private let offQueue = LockedCount()

    init(queue: DispatchQueue) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        queue.setSpecific(key: key, value: 1)
    }

    var offQueueCalls: Int { offQueue.value }

    private func record(_ event: Event) {
        if DispatchQueue.getSpecific(key: key) != 1 { offQueue.increment() }
        continuation.yield(event)
    }

    func bmobHistory(_ client: BmobHistoryClient, serverIsValid: Bool) { record(.valid(serverIsValid)) }
    func bmobHistory(_ client: BmobHistoryClient, didReceiveChanges changes: [BmobChange]) { record(.changes(changes)) }
    func bmobHistory(_ client: BmobHistoryClient, didReceiveDeletedObjects changes: [BmobChange]) {
        record(.deleted(changes))
    }
    func bmobHistory(_ client: BmobHistoryClient, didRevert object: BmobObject, toBefore change: BmobChange) {
        record(.reverted(object, change))
    }
    func bmobHistory(_ client: BmobHistoryClient, didRestore object: BmobObject, from change: BmobChange) {
        record(.restored(object, change))
    }
    func bmobHistory(_ client: BmobHistoryClient, didFailWithError error: BmobError) { record(.failed(error)) }
}

/// A counter behind a lock. Invariant for `@unchecked Sendable`: `count` is only touched under `lock`.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
