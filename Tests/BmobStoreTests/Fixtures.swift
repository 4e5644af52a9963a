import BmobStore
import BmobWire

/// Small object values for the store tests.
enum Fixtures {
    static func post(_ objectId: String, title: String = "hello", at time: Int64 = 1000) -> StoredObject {
        StoredObject(
            className: "Post", objectId: objectId, createdAt: time, updatedAt: time,
            acl: ["*": ["read": true]], fields: ["title": .string(title), "likes": 1])
    }
}

/// Thrown by test write bodies to force a rollback.
struct Rollback: Error {}
