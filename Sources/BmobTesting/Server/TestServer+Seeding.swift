import BmobServer
import BmobStore
package import BmobWire

extension TestServer {
    /// Writes an object straight into the test app's store, bypassing the API's rules — for fixtures the API
    /// cannot make yet (rows of `_User` before signup exists, say).
    ///
    /// - Returns: the object's id.
    @discardableResult
    package func seedObject(className: String, objectId: String, fields: [String: JSONValue]) async throws -> String {
        guard let runtime = await server.context.apps.runtime(id: Self.applicationId) else {
            throw StoreError(.notFound, "the test app is not open")
        }
        let now = Int64(server.context.clock.nowMilliseconds())
        let object = StoredObject(className: className, objectId: objectId, createdAt: now, updatedAt: now, fields: fields)
        try await runtime.store.write(caller: "test") { transaction in
            try transaction.insert(object)
        }
        return objectId
    }
}
