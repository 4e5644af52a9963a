import BmobStore
import BmobTesting
import BmobWire
import Testing

@Suite("StoreError", .enabled(if: !TestPostgres.isSelected, "engine-independent or SQLite's own: runs in the SQLite pass"))
struct StoreErrorTests {
    @Test func codesCompareAndDescribe() {
        let error = StoreError(.notFound, "object not found")
        #expect(error.code == .notFound)
        #expect(error.code != .duplicate)
        #expect(error.description == "StoreError.notFound: object not found")
        #expect(error.debugDescription.contains("StoreErrorTests.swift"))
    }

    @Test func descriptionKeepsDatabaseTextOutButDebugDescriptionHasIt() async throws {
        try await TemporaryDatabase.withStore { store, _ async throws in
            let secret = "secret-token-123"
            let error = await #expect(throws: StoreError.self) {
                try await store.write(caller: nil) { transaction in
                    try transaction.insert(
                        StoredObject(className: "Post", objectId: secret, createdAt: 1, updatedAt: 1))
                    try transaction.insert(
                        StoredObject(className: "Post", objectId: secret, createdAt: 1, updatedAt: 1))
                }
            }
            let described = try #require(error).description
            #expect(!described.contains(secret))
            #expect(described.contains("objectIdTaken"))
            // The underlying SQLite failure is kept for debugging.
            #expect(try #require(error).debugDescription.contains("UNIQUE constraint failed"))
        }
    }

    @Test func bmobCodes() {
        #expect(StoreError(.objectIdTaken, "").bmobCode == .duplicateValue)
        #expect(StoreError(.typeMismatch, "").bmobCode == .incorrectType)
        #expect(StoreError(.closed, "").bmobCode == .unavailable)
        #expect(StoreError(.internal, "").bmobCode == .internalError)
    }
}
