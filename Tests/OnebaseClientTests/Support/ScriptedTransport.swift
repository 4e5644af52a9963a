import BmobRealtime
import BmobWire
import Foundation

/// A transport that plays the sync server in memory: it records what the client sends and lets the test push
/// messages and closures.
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held;
/// `onEvent` is called after it is released.
final class ScriptedTransport: WebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let failsToConnect: Bool
    private var onEvent: (@Sendable (WebSocketTransportEvent) -> Void)?
    private var sentTexts: [String] = []
    private var closed = false
    private(set) var url: URL?

    init(failsToConnect: Bool = false) {
        self.failsToConnect = failsToConnect
    }

    func connect(
        to url: URL, headers: [HTTPField], timeout: Duration,
        onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
    ) async throws {
        if failsToConnect { throw WebSocketTransportError(.connectionFailed, "refused") }
        lock.withLock {
            self.url = url
            self.onEvent = onEvent
        }
    }

    func send(_ message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        lock.withLock { if !closed { sentTexts.append(text) } }
    }

    func close(code: WebSocketCloseCode, reason: String) {
        let handler = lock.withLock { () -> (@Sendable (WebSocketTransportEvent) -> Void)? in
            guard !closed else { return nil }
            closed = true
            return onEvent
        }
        if let handler { DispatchQueue.global().async { handler(.closed(WebSocketTransportClosure(code: code))) } }
    }

    /// The messages the client sent, decoded.
    var sent: [JSONValue] { lock.withLock { sentTexts }.compactMap { try? JSONParser.parse($0) } }
    var isClosed: Bool { lock.withLock { closed } }

    /// The server sends `message`.
    func serverSends(_ message: SyncServerMessage) { lock.withLock { onEvent }?(.message(.text(message.encoded))) }

    /// The connection drops.
    func drop() {
        let handler = lock.withLock { () -> (@Sendable (WebSocketTransportEvent) -> Void)? in
            guard !closed else { return nil }
            closed = true
            return onEvent
        }
        handler?(.closed(WebSocketTransportClosure(code: WebSocketCloseCode(rawValue: 1006))))
    }
}
