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
}
