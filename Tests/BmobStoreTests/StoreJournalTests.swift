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
                                try await store.write(caller: JournalAuthor(caller: id)) { try $0.insert(F.object("Item", id, ["n": 1])) }
                            case 1:
                                try await store.write(caller: JournalAuthor(caller: id)) { transaction in
                                    try transaction.insert(F.object("Item", id + "a", ["n": 1]))
                                    try transaction.insert(F.object("Item", id + "b", ["n": 2]))
                                }
                            case 2:
                                try await store.write(caller: JournalAuthor(caller: id), rerunnable: true) { transaction in
                                    try transaction.insert(F.object("Item", id, ["n": 3]))
                                }
                            default:
                                await #expect(throws: Rollback.self) {
                                    try await store.write(caller: JournalAuthor(caller: id)) { transaction in
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

    /// Schema changes are journaled as `schema` entries holding the class's schema before and after: creation,
    /// new fields (not fields already recorded), permissions, indexes, a removed field.
    @Test(arguments: StoreEngine.allCases)
    func schemaChangesAreJournaled(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let title: [String: FieldSchema] = ["title": .init(type: .string)]
            let both: [String: FieldSchema] = ["title": .init(type: .string), "score": .init(type: .number)]
            let permissions: JSONValue = ["find": ["*": true]]
            try await store.write(caller: "master") { try $0.recordFields(className: "Post", fields: title) }
            try await store.write(caller: "master") { transaction in
                try transaction.recordFields(className: "Post", fields: both)
                try transaction.recordFields(className: "Post", fields: both)  // nothing new: no entry
            }
            try await store.write(caller: "master") { transaction in
                try transaction.setClassPermissions(className: "Post", permissions: permissions)
                try transaction.setClassPermissions(className: "Post", permissions: permissions)  // unchanged
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)
                try transaction.createIndex(className: "Post", paths: ["score"], unique: false)  // declared already
                try transaction.createIndex(className: "Post", paths: ["score"], unique: true)
                try transaction.dropIndex(className: "Post", paths: ["score"])
                try transaction.removeField(className: "Post", field: "score")
            }
            let entries = try await store.journal(after: 0, limit: 100)
            #expect(entries.allSatisfy { $0.op == .schema && $0.className == "Post" && $0.objectId == nil })
            #expect(entries.allSatisfy { $0.caller == "master" })
            let index = StoredIndex(paths: ["score"], unique: false)
            let unique = StoredIndex(paths: ["score"], unique: true)
            let schemas = [
                StoredClassSchema(fields: title),
                StoredClassSchema(fields: both),
                StoredClassSchema(fields: both, permissions: permissions),
                StoredClassSchema(fields: both, permissions: permissions, indexes: [index]),
                StoredClassSchema(fields: both, permissions: permissions, indexes: [unique]),
                StoredClassSchema(fields: both, permissions: permissions),
                StoredClassSchema(fields: title, permissions: permissions),
            ]
            #expect(entries.map { $0.after.flatMap(StoredClassSchema.init(json:)) } == schemas)
            #expect(entries.map { $0.before.flatMap(StoredClassSchema.init(json:)) } == [nil] + schemas.dropLast())
            // Entries of an unchanged schema would be noise: none were written.
            #expect(entries.count == schemas.count)
        }
    }

    /// Relation members are journaled as the store changed them: only targets actually added or removed, and
    /// the members that go with a deleted owner or a removed relation field.
    @Test(arguments: StoreEngine.allCases)
    func relationChangesAreJournaled(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let u1 = PointerValue(className: "_User", objectId: "u1")
            let u2 = PointerValue(className: "_User", objectId: "u2")
            let u3 = PointerValue(className: "_User", objectId: "u3")
            try await store.write(caller: nil) { transaction in
                let marker: JSONValue = ["__type": "Relation", "className": "_User"]
                try transaction.recordFields(
                    className: "Game", fields: ["likes": .init(type: .relation, targetClass: "_User")])
                try transaction.insert(F.object("Game", "g1", ["likes": marker]))
                try transaction.insert(F.object("Game", "g2", ["likes": marker]))
            }
            let start = store.committedJournalSeq
            try await store.write(caller: "rest") { transaction in
                try transaction.addRelation(className: "Game", objectId: "g1", key: "likes", targets: [u1, u2])
                try transaction.addRelation(className: "Game", objectId: "g1", key: "likes", targets: [u2, u3])
                try transaction.addRelation(className: "Game", objectId: "g1", key: "likes", targets: [u3])  // held
                try transaction.removeRelation(
                    className: "Game", objectId: "g1", key: "likes",
                    targets: [PointerValue(className: "_User", objectId: "u9"), u1])
                try transaction.addRelation(className: "Game", objectId: "g2", key: "likes", targets: [u1])
            }
            let changes = try await store.journal(after: start, limit: 100)
            #expect(changes.map(\.op) == [.addRelation, .addRelation, .removeRelation, .addRelation])
            #expect(changes.map(\.objectId) == ["g1", "g1", "g1", "g2"])
            #expect(
                changes.map { ($0.after ?? $0.before).flatMap(JournalRelationChange.init(json:)) } == [
                    JournalRelationChange(key: "likes", targets: [u1, u2]),
                    JournalRelationChange(key: "likes", targets: [u3]),
                    JournalRelationChange(key: "likes", targets: [u1]),
                    JournalRelationChange(key: "likes", targets: [u1]),
                ])
            #expect(changes[2].after == nil && changes[0].before == nil)

            // Deleting the owner removes its members first; removing the field removes the others' members.
            let beforeDelete = store.committedJournalSeq
            _ = try await store.write(caller: nil) { try $0.delete(className: "Game", objectId: "g1") }
            let deletion = try await store.journal(after: beforeDelete, limit: 100)
            #expect(deletion.map(\.op) == [.removeRelation, .delete])
            #expect(
                deletion[0].before.flatMap(JournalRelationChange.init(json:))
                    == JournalRelationChange(key: "likes", targets: [u2, u3]))
            let beforeRemoval = store.committedJournalSeq
            try await store.write(caller: nil) { try $0.removeField(className: "Game", field: "likes") }
            let removal = try await store.journal(after: beforeRemoval, limit: 100)
            #expect(removal.map(\.op) == [.update, .removeRelation, .schema])
            #expect(removal[1].objectId == "g2")
            #expect(
                removal[1].before.flatMap(JournalRelationChange.init(json:))
                    == JournalRelationChange(key: "likes", targets: [u1]))
            let left = try await store.read { try $0.relationTargets(className: "Game", objectId: "g2", key: "likes") }
            #expect(left.isEmpty)
        }
    }

    /// A class drop journals everything it removes, so that history can restore the class and other nodes can
    /// forget it: each object (more than one page of them), the relation members it owns and those pointing at
    /// its objects, then the class with its last schema.
    @Test(arguments: StoreEngine.allCases)
    func dropClassJournalsWhatItRemoves(engine: StoreEngine) async throws {
        try await engine.withStore { store, _ async throws in
            let count = 600
            let permissions: JSONValue = ["get": ["*": true]]
            try await store.write(caller: nil) { transaction in
                try transaction.recordFields(
                    className: "Post",
                    fields: ["n": .init(type: .number), "fans": .init(type: .relation, targetClass: "_User")])
                try transaction.setClassPermissions(className: "Post", permissions: permissions)
                try transaction.createIndex(className: "Post", paths: ["n"], unique: false)
                for index in 0..<count {
                    try transaction.insert(F.object("Post", Self.postId(index), ["n": .int(Int64(index))]))
                }
                try transaction.insert(F.object("_User", "u1", [:]))
                try transaction.addRelation(
                    className: "Post", objectId: "p0001", key: "fans",
                    targets: [PointerValue(className: "_User", objectId: "u1")])
                try transaction.addRelation(
                    className: "_User", objectId: "u1", key: "posts",
                    targets: [
                        PointerValue(className: "Post", objectId: "p0002"),
                        PointerValue(className: "Post", objectId: "p0003"),
                    ])
            }
            let start = store.committedJournalSeq
            try await store.write(caller: "master") { try $0.dropClass(className: "Post") }
            let entries = try await store.journal(after: start, limit: 10_000)
            let dropped = entries.filter { $0.op == .dropClassObject }
            #expect(entries.allSatisfy { $0.caller == "master" && $0.after == nil })
            #expect(dropped.count == count)
            #expect(dropped.map(\.objectId) == (0..<count).map(Self.postId))
            #expect(dropped.allSatisfy { $0.className == "Post" })
            #expect(
                dropped[5].before.flatMap { StoredObject(className: "Post", json: $0) }
                    == F.object("Post", "p0005", ["n": 5]))
            let relations = entries.filter { $0.op == .removeRelation }
            #expect(relations.map(\.className) == ["Post", "_User"])
            #expect(relations.map(\.objectId) == ["p0001", "u1"])
            #expect(
                relations.map { $0.before.flatMap(JournalRelationChange.init(json:)) } == [
                    JournalRelationChange(key: "fans", targets: [PointerValue(className: "_User", objectId: "u1")]),
                    JournalRelationChange(
                        key: "posts",
                        targets: [
                            PointerValue(className: "Post", objectId: "p0002"),
                            PointerValue(className: "Post", objectId: "p0003"),
                        ]),
                ])
            let drop = try #require(entries.last)
            #expect(drop.op == .dropClass && drop.className == "Post" && drop.objectId == nil)
            #expect(entries.count == count + 3)
            #expect(
                drop.before.flatMap(StoredClassSchema.init(json:))
                    == StoredClassSchema(
                        fields: ["n": .init(type: .number), "fans": .init(type: .relation, targetClass: "_User")],
                        permissions: permissions, indexes: [StoredIndex(paths: ["n"], unique: false)]))
        }
    }

    /// `p0000`, `p0001`, …: ids that sort as their numbers do.
    private static func postId(_ number: Int) -> String {
        let digits = String(number)
        return "p" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
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
