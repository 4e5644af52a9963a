import BmobWire
import Foundation

#if canImport(Glibc) || canImport(Musl) || canImport(Android)
/// What other threads ask of a ``POSIXWebSocketTransport``'s I/O thread, in order, with the pipe that
/// wakes it.
///
/// Invariant for `@unchecked Sendable`: `commands` and `isClosing` are read and written only while `lock`
/// is held, and the lock is never held while calling out; ``wakePipe`` is itself thread-safe.
final class WebSocketCommandQueue: @unchecked Sendable {
    /// One request for the I/O thread.
    enum Command: Sendable {
        /// Send a message.
        case send(WebSocketMessage)
        /// Start the closing handshake, or abandon the connection while it is being opened.
        case close(WebSocketCloseCode, reason: String)
    }

    /// The pipe the I/O thread polls.
    let wakePipe: WakePipe
    private let lock = NSLock()
    private var commands: [Command] = []
    private var isClosing = false

    /// A queue with its own pipe, or `nil` when no pipe can be made.
    init?() {
        guard let pipe = WakePipe() else { return nil }
        wakePipe = pipe
    }

    /// Queues a command and wakes the I/O thread. Messages after a close are dropped.
    ///
    /// - Parameter command: the request.
    func push(_ command: Command) {
        let accepted = lock.withLock { () -> Bool in
            guard !isClosing else { return false }
            if case .close = command { isClosing = true }
            commands.append(command)
            return true
        }
        if accepted { wakePipe.wake() }
    }

    /// Whether a close was asked for.
    var closeRequested: Bool { lock.withLock { isClosing } }

    /// Takes every queued command, oldest first.
    func takeAll() -> [Command] {
        lock.withLock {
            let taken = commands
            commands = []
            return taken
        }
    }
}
#endif
