import BmobIO
import BmobWire

/// What an ``HTTPServer`` keeps on each of its loops: listener, connections, counters. Loop-confined.
final class ServerLoopState {
    let loop: EventLoop
    var listener: TCPListener?
    private(set) var connections: [ObjectIdentifier: HTTPConnection] = [:]
    /// Connections that switched to WebSocket; they still count against the connection limit.
    private(set) var webSockets: [ObjectIdentifier: WebSocketConnection] = [:]
    private(set) var inFlightRequests = 0
    private(set) var isShuttingDown = false
    let dateCache = HTTPDateCache()
    /// Reused response buffer; see ``takeScratchBuffer()``.
    private var scratch: [UInt8] = []
    private let shared: HTTPServer.Shared

    init(loop: EventLoop, shared: HTTPServer.Shared) {
        self.loop = loop
        self.shared = shared
    }

    /// Takes an accepted socket: admits it, or answers 503 when the server is full or closing.
    func accepted(fd: Int32, address: SocketAddress) {
        let channel = Channel(fd: fd, loop: loop, remoteAddress: address)
        guard !isShuttingDown, shared.admitConnection() else {
            rejectFull(channel)
            return
        }
        let connection = HTTPConnection(channel: channel, shared: shared, state: self)
        channel.handler = connection
        connections[ObjectIdentifier(connection)] = connection
        do {
            try channel.activate()
        } catch {
            channel.close()
        }
    }

    private func rejectFull(_ channel: Channel) {
        var response = shared.responder.errorResponse(status: .serviceUnavailable, message: "too many connections")
        response.closeConnection = true
        var bytes: [UInt8] = []
        HTTPResponseEncoder.encode(
            HTTPResponseHead(status: response.status, headers: response.headers),
            body: response.body,
            keepAlive: false,
            date: dateCache.current,
            into: &bytes
        )
        do {
            try channel.activate()
            channel.write(bytes)
            channel.closeAfterPendingWrites(lingerNanoseconds: 500_000_000)
        } catch {
            channel.close()
        }
    }

    func connectionClosed(_ connection: HTTPConnection) {
        if connections.removeValue(forKey: ObjectIdentifier(connection)) != nil {
            shared.releaseConnection()
        }
    }

    /// A connection switched to WebSocket: it keeps its admission, under its new owner.
    func upgraded(_ connection: HTTPConnection, to socket: WebSocketConnection) {
        guard connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
        webSockets[ObjectIdentifier(socket)] = socket
    }

    func webSocketClosed(_ socket: WebSocketConnection) {
        if webSockets.removeValue(forKey: ObjectIdentifier(socket)) != nil {
            shared.releaseConnection()
        }
    }

    /// An empty buffer with capacity left from earlier responses. Hand it back with ``returnScratchBuffer(_:)``.
    func takeScratchBuffer() -> [UInt8] {
        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    func returnScratchBuffer(_ buffer: [UInt8]) {
        // A buffer still referenced elsewhere (queued after a partial write) is not reused; a large one is
        // dropped so one big response does not pin its memory.
        if buffer.capacity <= 64 * 1024 {
            scratch = buffer
        }
    }

    func requestStarted() { inFlightRequests += 1 }

    func requestFinished() {
        inFlightRequests -= 1
    }

    /// Stops accepting and winds connections down (idle now, busy after their response).
    func beginShutdown() {
        isShuttingDown = true
        listener?.close()
        listener = nil
        for connection in connections.values {
            connection.beginShutdown()
        }
        for socket in webSockets.values {
            socket.beginShutdown()
        }
    }

    /// Closes every remaining connection.
    func closeAll() {
        for connection in Array(connections.values) {
            connection.channel.close()
        }
        for socket in Array(webSockets.values) {
            socket.channel.close()
        }
    }
}
