#if canImport(Darwin)
package import BmobWire
package import Foundation

/// The WebSocket client on Apple platforms: `URLSessionWebSocketTask`, opened with a `URLRequest` that
/// carries the extra header fields (the socket.io `Origin`).
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held,
/// and the lock is never held while calling out. The session's delegate queue is serial, so delegate
/// callbacks and receive completions do not overlap; ``finish(_:)`` reports the closure exactly once.
package final class URLSessionWebSocketTransport: NSObject, WebSocketTransport, URLSessionWebSocketDelegate,
    @unchecked Sendable
{
    private let lock = NSLock()
    private let maximumMessageSize: Int
    private var session: URLSession?
    private var task: URLSessionWebSocketTask?
    private var opening: CheckedContinuation<Void, any Error>?
    private var onEvent: (@Sendable (WebSocketTransportEvent) -> Void)?
    private var isFinished = false
    private var closedEarly = false

    /// A transport that has not connected yet.
    ///
    /// - Parameter maximumMessageSize: the largest incoming message.
    package init(maximumMessageSize: Int = 16 * 1024 * 1024) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Opens the task and waits for the server's 101; see ``WebSocketTransport/connect(to:headers:timeout:onEvent:)``.
    package func connect(
        to url: URL, headers: [HTTPField], timeout: RealtimeDuration,
        onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
    ) async throws {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout.timeInterval)
        for field in headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        let task = session.webSocketTask(with: request)
        task.maximumMessageSize = maximumMessageSize
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let early = lock.withLock { () -> Bool in
                    precondition(self.task == nil, "a WebSocket transport connects once")
                    self.session = session
                    self.task = task
                    self.onEvent = onEvent
                    opening = continuation
                    return closedEarly
                }
                if early {
                    finishOpening(throwing: WebSocketTransportError(.cancelled, "closed before connecting"))
                    task.cancel(with: .goingAway, reason: nil)
                    session.invalidateAndCancel()
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            task.cancel(with: .goingAway, reason: nil)
        }
        receiveNext(task)
    }

    /// Sends a message; a failure shows up as the closure.
    package func send(_ message: WebSocketMessage) {
        guard let task = lock.withLock({ isFinished ? nil : task }) else { return }
        switch message {
        case .text(let text): task.send(.string(text)) { _ in }
        case .binary(let bytes): task.send(.data(Data(bytes))) { _ in }
        }
    }

    /// Sends a close frame with `code` (1000 when URLSession has no case for it) and closes.
    package func close(code: WebSocketCloseCode, reason: String) {
        let task = lock.withLock { () -> URLSessionWebSocketTask? in
            if self.task == nil { closedEarly = true }
            return self.task
        }
        let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
        task?.cancel(with: closeCode, reason: Data(reason.utf8))
    }

    // MARK: - URLSession callbacks

    /// The server accepted the upgrade.
    package func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
    ) {
        let continuation = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
            defer { opening = nil }
            return opening
        }
        continuation?.resume()
    }

    /// The closing handshake finished.
    package func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        let code = closeCode == .invalid ? WebSocketCloseCode.noStatusReceived : WebSocketCloseCode(rawValue: UInt16(clamping: closeCode.rawValue))
        finish(WebSocketTransportClosure(code: code, reason: reason.map { String(decoding: $0, as: UTF8.self) } ?? ""))
    }

    /// The task ended, with an error when the connection failed.
    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let failure = WebSocketTransportError(.connectionLost, error.map { "\($0.localizedDescription)" } ?? "task completed")
        if finishOpening(throwing: WebSocketTransportError(.handshakeRejected, failure.message)) { return }
        finish(WebSocketTransportClosure(code: .abnormalClosure, error: failure))
    }

    // MARK: - Private

    private func receiveNext(_ task: URLSessionWebSocketTask) {
        task.receive { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let message):
                switch message {
                case .string(let text): self.deliver(.message(.text(text)))
                case .data(let data): self.deliver(.message(.binary(Array(data))))
                @unknown default: break
                }
                self.receiveNext(task)
            case .failure(let error):
                let code = task.closeCode
                if code != .invalid {
                    let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
                    self.finish(WebSocketTransportClosure(code: WebSocketCloseCode(rawValue: UInt16(clamping: code.rawValue)), reason: reason))
                } else {
                    self.finish(
                        WebSocketTransportClosure(
                            code: .abnormalClosure,
                            error: WebSocketTransportError(.connectionLost, error.localizedDescription)))
                }
            }
        }
    }

    private func deliver(_ event: WebSocketTransportEvent) {
        guard let onEvent = lock.withLock({ isFinished ? nil : onEvent }) else { return }
        onEvent(event)
    }

    /// Fails a pending `connect`; `false` when it was no longer pending.
    @discardableResult
    private func finishOpening(throwing error: WebSocketTransportError) -> Bool {
        let continuation = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
            defer { opening = nil }
            if opening != nil { isFinished = true }
            return opening
        }
        continuation?.resume(throwing: error)
        if continuation != nil { lock.withLock { session }?.invalidateAndCancel() }
        return continuation != nil
    }

    /// Reports the closure once and releases the session (which holds its delegate).
    private func finish(_ closure: WebSocketTransportClosure) {
        let (onEvent, session) = lock.withLock { () -> ((@Sendable (WebSocketTransportEvent) -> Void)?, URLSession?) in
            guard !isFinished else { return (nil, nil) }
            isFinished = true
            return (self.onEvent, self.session)
        }
        session?.finishTasksAndInvalidate()
        onEvent?(.closed(closure))
    }
}
#endif
