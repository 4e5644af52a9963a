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

/// Reads an event stream in a task and keeps what arrived, and whether the stream ended.
///
/// Invariant for `@unchecked Sendable`: `received` and `ended` are only touched while `lock` is held.
final class EventCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [BmobEventMessage] = []
    private var ended = false
    private(set) var task: Task<Void, Never>!

    init(_ stream: AsyncStream<BmobEventMessage>) {
        task = Task { [self] in
            for await message in stream {
                lock.withLock { received.append(message) }
            }
            lock.withLock { ended = true }
        }
    }

    var messages: [BmobEventMessage] { lock.withLock { received } }
    var hasEnded: Bool { lock.withLock { ended } }

    /// The messages of `className` whose data has `field` equal to `value`.
    func messages(className: String, field: String, equalTo value: String) -> [BmobEventMessage] {
        messages.filter { $0.className == className && ($0.data?[field] as? String) == value }
    }

    /// Waits until `predicate` holds for the messages received so far.
    @discardableResult
    func wait(timeout: Double = 10, _ what: String, until predicate: ([BmobEventMessage]) -> Bool) async throws -> [BmobEventMessage] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let messages = self.messages
            if predicate(messages) { return messages }
            guard Date() < deadline else { throw FixtureError("timed out waiting for \(what); got \(messages.map(\.rawValueText))") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the stream to end.
    func waitForEnd(timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !hasEnded {
            guard Date() < deadline else { throw FixtureError("the stream did not end") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

extension BmobEventMessage {
    /// A short description for failure messages.
    var rawValueText: String { "\(action ?? "?") \(className ?? "?") \(objectId ?? "?")" }
}

/// A delegate that records its calls in order, for the realtime behaviour tests.
@MainActor
final class RealtimeRecorder: BmobEventDelegate {
    enum Call: Equatable {
        case connected
        case ready
        case message(BmobEventMessage)
        case failed(String)
        case disconnected(failed: Bool)
    }

    private(set) var calls: [Call] = []
    /// When each ready call arrived.
    private(set) var readyTimes: [ContinuousClock.Instant] = []

    func bmobEventDidConnect(_ event: BmobEvent) { calls.append(.connected) }
    func bmobEventCanStartListen(_ event: BmobEvent) {
        calls.append(.ready)
        readyTimes.append(.now)
    }
    func bmobEvent(_ event: BmobEvent, didReceiveMessage message: BmobEventMessage) { calls.append(.message(message)) }
    func bmobEvent(_ event: BmobEvent, didFailWithError error: any Error) { calls.append(.failed(String(describing: error))) }
    func bmobEventDidDisconnect(_ event: BmobEvent, error: (any Error)?) { calls.append(.disconnected(failed: error != nil)) }

    var messages: [BmobEventMessage] {
        calls.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    /// Waits (on the main actor, letting callbacks run) until `predicate` holds.
    func wait(timeout: Double = 10, _ what: String, until predicate: (RealtimeRecorder) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate(self) {
            guard Date() < deadline else { throw FixtureError("timed out waiting for \(what); calls: \(calls)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
