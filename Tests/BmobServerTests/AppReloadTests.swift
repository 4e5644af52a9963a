import BmobServer
import BmobTesting
import Testing

/// `AppDirectory.reload()` on the engine under test (apps.json on SQLite, the app table on PostgreSQL): what SIGHUP
/// runs.
@Suite struct AppReloadTests {
    @Test func reloadOpensNewAppsAndAppliesChangedSettingsAtOnce() async throws {
        try await withTestServer { server in
            let configuration = server.server.context.configuration
            let registry = AppRegistry(dataDirectory: configuration.dataDirectory, storage: configuration.storage)
            let added = try registry.create(
                name: "Added", applicationId: "reloadadded0000000000000000000002", restKey: "added-rest",
                masterKey: "added-master", secretKey: "0123456789abcdef", now: 1)
            _ = try registry.update(applicationId: TestServer.applicationId) { $0.timeZone = "+01:00" }

            let reload = try await server.server.context.apps.reload()
            #expect(reload.added == [added.applicationId])
            #expect(reload.changed == [TestServer.applicationId])
            #expect(reload.removed.isEmpty && reload.failed.isEmpty)
            #expect(reload.total == 2)
            #expect(server.server.context.apps.openedRuntime(id: added.applicationId) != nil)
            #expect(server.server.context.apps.openedRuntime(id: TestServer.applicationId)?.app.timeZone == "+01:00")

            func timestamp(_ id: String, _ key: String) async throws -> Int {
                try await server.request(
                    "GET", "/1/timestamp", headers: [("X-Bmob-Application-Id", id), ("X-Bmob-REST-API-Key", key)]
                ).status
            }
            #expect(try await timestamp(added.applicationId, "added-rest") == 200)
            #expect(try await timestamp(added.applicationId, "wrong-rest") == 401)

            // Nothing changed since: a second reload reports so.
            let again = try await server.server.context.apps.reload()
            #expect(again.added.isEmpty && again.changed.isEmpty && again.removed.isEmpty)
            #expect(again.summary == "2 apps, unchanged")
        }
    }
}
