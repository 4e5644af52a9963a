import BmobServer
import Testing

/// What a commit re-runs: whole classes, single objects, and roles everywhere.
@Suite("Sync read sets")
struct SyncReadSetTests {
    @Test("a change touches a read set through its class, its object, or _Role")
    func touches() {
        var reads = SyncReadSet()
        reads.readClass("notes")
        reads.readObject("users", "u1")
        #expect(reads.isTouched(className: "notes", objectId: "any"))
        #expect(reads.isTouched(className: "users", objectId: "u1"))
        #expect(!reads.isTouched(className: "users", objectId: "u2"))
        #expect(reads.isTouched(className: "users", objectId: nil), "a class-wide change touches every object")
        #expect(!reads.isTouched(className: "comments", objectId: "c1"))
        #expect(reads.isTouched(className: "_Role", objectId: "r1"), "roles decide what every caller reads")
        #expect(!SyncReadSet().isTouched(className: "notes", objectId: "n1"))
    }

    @Test("a list with plain equalities is touched only by objects that match them before or after the change")
    func equalityFilters() {
        var reads = SyncReadSet()
        reads.readClass("items", where: ["group": 7, "kind": "a", "score": ["$gt": 3], "$or": [["x": 1]]])
        let seven: JSONValue = ["objectId": "i1", "group": 7, "kind": "a"]
        let eight: JSONValue = ["objectId": "i1", "group": 8, "kind": "a"]
        #expect(reads.isTouched(className: "items", objectId: "i1", before: nil, after: seven), "created into the group")
        #expect(reads.isTouched(className: "items", objectId: "i1", before: seven, after: eight), "moved out of the group")
        #expect(reads.isTouched(className: "items", objectId: "i1", before: eight, after: seven), "moved into the group")
        #expect(!reads.isTouched(className: "items", objectId: "i2", before: nil, after: eight), "another group")
        #expect(!reads.isTouched(className: "items", objectId: "i2", before: ["group": 7, "kind": "b"], after: nil))
        #expect(reads.isTouched(className: "items", objectId: "i3", before: nil, after: ["group": 7.0, "kind": "a"]))
        #expect(reads.isTouched(className: "items", objectId: "i4", before: nil, after: ["group": [7, 8], "kind": "a"]), "arrays may contain it")
        #expect(reads.isTouched(className: "items", objectId: nil), "a class-wide change touches it")
        // Conditions without a plain equality read the whole class.
        var whole = SyncReadSet()
        whole.readClass("items", where: ["score": ["$gt": 3]])
        #expect(whole.isTouched(className: "items", objectId: "i2", before: nil, after: eight))
    }
}
