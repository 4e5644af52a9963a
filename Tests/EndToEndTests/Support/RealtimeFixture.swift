import BmobSDK
import BmobTesting
import BmobWire
import Foundation

/// Helpers for the realtime end-to-end tests: reading event streams in the background, and proving that
/// the subscriptions sent so far are applied on the server before a test writes anything.
enum RealtimeFixture {
    /// Registers an update subscription on a fresh probe table (after every subscription the test made),
    /// then writes probe rows until one arrives through a stream of `event`. The server handles one
    /// connection's packets in order, so every earlier subscription is applied by then. The probe
    /// subscription is cancelled and its rows deleted afterwards.
    ///
    /// - Parameters:
    ///   - event: a connected or connecting event object.
    ///   - server: where the probe rows go (the server the event listens to).
    ///   - timeout: how long to keep probing.
    static func waitUntilLive(_ event: BmobEvent, server: TestServer? = nil, timeout: Double = 15) async throws {
        let server = try await serverOrFixture(server)
        let table = "RealtimeProbe" + String(UUID().uuidString.prefix(8).filter(\.isLetter))
        let probe = EventCollector(event.eventStream())
        defer { probe.task.cancel() }
        event.listenTableChange(className: table)
        var ids: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !probe.messages.contains(where: { $0.className == table }) {
            guard Date() < deadline else { throw FixtureError("realtime subscriptions not live after \(timeout) s") }
            ids.append(try await create(table, ["probe": .int(Int64(ids.count))], on: server))
            for _ in 0..<30 where !probe.messages.contains(where: { $0.className == table }) {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        event.cancelListenTableChange(className: table)
        for id in ids { try await delete(table, id, on: server) }
    }

    /// Creates an object through REST on `server` and returns its id.
    static func create(_ className: String, _ body: [String: JSONValue], on server: TestServer? = nil) async throws -> String {
        let server = try await serverOrFixture(server)
        var bytes: [UInt8] = []
        JSONValue.object(body).appendJSON(to: &bytes)
        let response = try await server.request(
            "POST", "/1/classes/\(className)", headers: server.appHeaders + [("Content-Type", "application/json")], body: bytes)
        guard response.status == 201, let id = try JSONParser.parse(response.body)["objectId"]?.stringValue else {
            throw FixtureError("create in \(className) answered \(response.status)")
        }
        return id
    }

    /// Updates an object through REST.
    static func update(_ className: String, _ objectId: String, _ body: [String: JSONValue], on server: TestServer? = nil) async throws {
        let server = try await serverOrFixture(server)
        var bytes: [UInt8] = []
        JSONValue.object(body).appendJSON(to: &bytes)
        let response = try await server.request(
            "PUT", "/1/classes/\(className)/\(objectId)", headers: server.appHeaders + [("Content-Type", "application/json")],
            body: bytes)
        guard response.status == 200 else { throw FixtureError("update of \(className)/\(objectId) answered \(response.status)") }
    }

    /// Deletes an object through REST; a failure is an error, so cleanup problems fail the test.
    static func delete(_ className: String, _ objectId: String, on server: TestServer? = nil) async throws {
        let server = try await serverOrFixture(server)
        let response = try await server.request("DELETE", "/1/classes/\(className)/\(objectId)", headers: server.masterHeaders)
        guard response.status == 200 else { throw FixtureError("delete of \(className)/\(objectId) answered \(response.status)") }
    }

    private static func serverOrFixture(_ server: TestServer?) async throws -> TestServer {
        if let server { return server }
        return try await SDKFixture.server()
    }
}
