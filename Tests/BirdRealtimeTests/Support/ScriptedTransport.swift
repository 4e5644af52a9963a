@testable import BirdRealtime
import BmobRealtime
import BmobWire
import Foundation

/// A transport that plays the edge in memory: it records what the client sends and lets the test push messages
/// and closures. Made by ``FakeEdge``.
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held;
/// `onEvent` is called after it is released, from one test thread at a time.
final class ScriptedTransport: WebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let failsToConnect: Bool
    private var onEvent: (@Sendable (WebSocketTransportEvent) -> Void)?
    private var sentTexts: [String] = []
    private var closeCode: WebSocketCloseCode?
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
        lock.withLock { if closeCode == nil { sentTexts.append(text) } }
    }

    func close(code: WebSocketCloseCode, reason: String) {
        let handler = lock.withLock { () -> (@Sendable (WebSocketTransportEvent) -> Void)? in
            guard closeCode == nil else { return nil }
            closeCode = code
            return onEvent
        }
        if let handler { DispatchQueue.global().async { handler(.closed(WebSocketTransportClosure(code: code))) } }
    }

    var sent: [String] { lock.withLock { sentTexts } }
    var connected: Bool { lock.withLock { onEvent != nil } }
    var closedWith: WebSocketCloseCode? { lock.withLock { closeCode } }

    /// The edge sends a text frame.
    func serverSends(_ text: String) { lock.withLock { onEvent }?(.message(.text(text))) }

    /// The edge sends a binary frame.
    func serverSendsBinary(_ bytes: [UInt8]) { lock.withLock { onEvent }?(.message(.binary(bytes))) }

    /// The edge closes with `code`.
    func serverCloses(_ code: UInt16) {
        let handler = lock.withLock { () -> (@Sendable (WebSocketTransportEvent) -> Void)? in
            guard closeCode == nil else { return nil }
            closeCode = WebSocketCloseCode(rawValue: code)
            return onEvent
        }
        handler?(.closed(WebSocketTransportClosure(code: WebSocketCloseCode(rawValue: code))))
    }

    /// The edge accepts the connection as `id`.
    func establish(_ id: String = "1.1") {
        serverSends(
            #"{"event":"bird:connection_established","data":"{\"socket_id\":\"\#(id)\",\"activity_timeout\":120}"}"#)
    }
}
