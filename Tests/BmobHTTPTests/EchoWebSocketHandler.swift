import BmobHTTP
import BmobWire

/// Echoes messages back. Text commands: `close-please` makes the server start the closing handshake;
/// `flood <n>` sends n messages of 64 KiB (for the slow-reader limit).
final class EchoWebSocketHandler: WebSocketHandler {
    private let log: WebSocketEventLog

    init(log: WebSocketEventLog) {
        self.log = log
    }

    func webSocketOpened(_ socket: WebSocketConnection) {
        log.record(.opened)
    }

    func webSocketReceived(_ socket: WebSocketConnection, _ message: WebSocketMessage) {
        switch message {
        case .text("close-please"):
            socket.close(code: .normalClosure, reason: "bye")
        case .text(let text) where text.hasPrefix("flood "):
            let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            let frame = WebSocketFrame(opcode: .text, payload: payload).encoded()
            var sent = 0
            for _ in 0..<(Int(text.dropFirst(6)) ?? 0) {
                guard socket.send(encodedFrame: frame) else { break }
                sent += 1
            }
            log.record(.flooded(sent: sent, queued: socket.queuedBytes))
        case .text(let text):
            socket.send(text: text)
        case .binary(let bytes):
            socket.send(encodedFrame: WebSocketFrame(opcode: .binary, payload: bytes).encoded())
        }
    }

    func webSocketClosed(_ socket: WebSocketConnection, code: WebSocketCloseCode?) {
        log.record(.closed(code))
    }
}
