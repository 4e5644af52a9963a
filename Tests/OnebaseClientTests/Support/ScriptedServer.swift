import BmobRealtime
import BmobTesting
import BmobWire
import Foundation
@testable import OnebaseClient

/// Hands each client attempt a ``ScriptedTransport`` (or a refusing one while ``refusing`` is set) and keeps them, so a
/// test can play the server of the newest socket.
///
/// Invariant for `@unchecked Sendable`: `made` and `refuse` are read and written only while `lock` is held.
final class ScriptedServer: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [ScriptedTransport] = []
    private var refuse = false

    /// Whether new sockets fail to open.
    var refusing: Bool {
        get { lock.withLock { refuse } }
        set { lock.withLock { refuse = newValue } }
    }

    /// Every transport made, oldest first.
    var transports: [ScriptedTransport] { lock.withLock { made } }

    /// An environment whose sockets are this server's, with a fast backoff and a temporary token store.
    func environment(tokenFolder: URL) -> OnebaseClientEnvironment {
        OnebaseClientEnvironment(
            makeTransport: { [self] in
                lock.withLock {
                    let transport = ScriptedTransport(failsToConnect: refuse)
                    made.append(transport)
                    return transport
                }
            },
            makeTokenStore: { _ in OnebaseFileTokenStore(fileURL: tokenFolder.appendingPathComponent("token")) },
            backoff: OnebaseReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(40)))
    }

    /// The newest open socket, once the client sent its opening burst on it.
    func openSocket() async throws -> ScriptedTransport {
        try await waitUntil("a socket opens") {
            guard let last = transports.last, !last.isClosed, last.sent.first?["type"] == "Connect" else { return nil }
            return last
        }
    }
}

/// Polls `probe` until it returns a value (at most 20 s: a loaded CI machine is slow, a passing test is not).
func waitUntil<T>(_ what: String, _ probe: () -> T?) async throws -> T {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
        if let value = probe() { return value }
        try await Task.sleep(for: .milliseconds(5))
    }
    throw WaitTimeout(what: what)
}

/// Polls `condition` until it holds (at most 20 s).
func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    _ = try await waitUntil(what) { condition() ? true : nil }
}

struct WaitTimeout: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting until \(what)" }
}

/// Values recorded from callbacks on the main queue.
///
/// Invariant for `@unchecked Sendable`: `items` is read and written only while `lock` is held.
final class Recorder<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []
    func append(_ item: Item) { lock.withLock { items.append(item) } }
    var all: [Item] { lock.withLock { items } }
}
