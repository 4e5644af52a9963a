import BmobWire
import Foundation
@testable import OnebaseClient

/// Drives an ``OnebaseSyncMachine`` as the client would, recording every action, and plays the server with the wire
/// codec (the server's side of `SyncServerMessage`).
struct MachineHarness {
    typealias Action = OnebaseSyncMachine.Action

    var machine: OnebaseSyncMachine
    /// Every action so far.
    var log: [Action] = []

    init(token: String? = nil, offline: OfflineStore? = nil) {
        machine = OnebaseSyncMachine(
            sessionId: "session-1", token: token, offline: offline, jitter: { 0 }, clock: { Date() })
    }

    /// Runs an event; returns its actions.
    @discardableResult
    mutating func run(_ event: (inout OnebaseSyncMachine) -> [Action]) -> [Action] {
        let actions = event(&machine)
        log += actions
        return actions
    }

    /// Starts and opens the first socket; returns the opening burst's actions.
    @discardableResult
    mutating func startAndOpen() -> [Action] {
        run { $0.start() }
        return open()
    }

    /// Opens the current attempt's socket.
    @discardableResult
    mutating func open() -> [Action] {
        let attempt = machine.attempt
        return run { $0.transportOpened(attempt: attempt, now: Date(timeIntervalSince1970: 1)) }
    }

    /// The server sends `message`.
    @discardableResult
    mutating func server(_ message: SyncServerMessage) -> [Action] {
        let attempt = machine.attempt
        return run { $0.messageReceived(attempt: attempt, text: message.encoded) }
    }

    /// The server confirms the user.
    @discardableResult
    mutating func authOk(_ userId: String? = nil) -> [Action] {
        server(.authOk(baseVersion: 0, userId: userId))
    }

    /// A transition from the current version to `ts` (same query set and identity) with `updates`.
    @discardableResult
    mutating func transition(ts: Int64, _ updates: [SyncQueryUpdate]) -> [Action] {
        let start = machine.version
        var end = start
        end.ts = ts
        return server(.transition(start: start, end: end, modifications: updates))
    }

    /// The socket drops.
    @discardableResult
    mutating func drop() -> [Action] {
        let attempt = machine.attempt
        return run { $0.transportClosed(attempt: attempt, reason: "Closed 1006") }
    }

    /// The messages sent in `actions`, decoded.
    static func sent(_ actions: [Action]) -> [JSONValue] {
        actions.compactMap { action in
            guard case .send(_, let text) = action else { return nil }
            return try? JSONParser.parse(text)
        }
    }

    /// The `type`s of the messages sent in `actions`.
    static func sentTypes(_ actions: [Action]) -> [String] {
        sent(actions).compactMap { $0["type"]?.stringValue }
    }

    /// The deliveries in `actions`.
    static func deliveries(_ actions: [Action]) -> [(Int, OnebaseValue?)] {
        actions.compactMap { action in
            guard case .deliver(let subscriber, let value) = action else { return nil }
            return (subscriber, value)
        }
    }

    /// The positions of deliveries and resolutions in `actions`, as `"deliver"` / `"resolve"` marks.
    static func order(_ actions: [Action]) -> [String] {
        actions.compactMap { action in
            switch action {
            case .deliver: "deliver"
            case .resolve: "resolve"
            default: nil
            }
        }
    }

    /// A token.
    static func token(_ name: String, _ args: [String: OnebaseValue] = [:]) -> OnebaseQueryToken {
        try! OnebaseQueryToken(name: name, arguments: args)
    }

    /// A temporary folder, removed by the caller.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onebase-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
