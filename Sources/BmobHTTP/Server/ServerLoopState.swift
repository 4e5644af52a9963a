import BmobIO
import BmobWire
import BmobServerCodecs
import Synchronization

/// What an ``HTTPServer`` keeps on each of its loops: listener, connections, counters. Loop-confined.
final class ServerLoopState {
    let loop: EventLoop
    var listener: TCPListener?
    private(set) var connections: [ObjectIdentifier: HTTPConnection] = [:]
    /// Connections that switched to WebSocket; they still count against the connection limit.
    private(set) var webSockets: [ObjectIdentifier: WebSocketConnection] = [:]
    private(set) var inFlightRequests = 0
    private(set) var isShuttingDown = false
    /// Ends of the list of connections that have not sent a complete request head yet, oldest first, linked
    /// through ``HTTPConnection/olderWaiting`` and ``HTTPConnection/newerWaiting``: a full server makes room
    /// by closing the oldest (see ``accepted(fd:address:)``).
    private var oldestWaiting: HTTPConnection?
    private var newestWaiting: HTTPConnection?
    let dateCache = HTTPDateCache()
    /// Reused response buffer; see ``takeScratchBuffer()``.
    private var scratch: [UInt8] = []
    private let shared: HTTPServer.Shared

    /// Counts a message queued on a WebSocket of this server.
    func countWebSocketMessage() {
        shared.webSocketMessagesSent.wrappingAdd(1, ordering: .relaxed)
    }

    /// Counts a WebSocket closed because its client read too slowly.
    func countSlowWebSocketClient() {
        shared.webSocketSlowClientCloses.wrappingAdd(1, ordering: .relaxed)
    }

    init(loop: EventLoop, shared: HTTPServer.Shared) {
        self.loop = loop
        self.shared = shared
    }

    /// Takes an accepted socket: admits it, or answers 503 when its client already holds its share of
    /// connections, or when the server is full (or closing) and no connection on this loop that never sent a
    /// complete request head can make room.
    func accepted(fd: Int32, address: SocketAddress) {
        let channel = Channel(fd: fd, loop: loop, remoteAddress: address)
        guard !isShuttingDown else {
            reject(channel, "server is shutting down")
            return
        }
        let client = ClientAddress(address)
        guard shared.admitConnection(from: client) else {
            reject(channel, "too many connections from your address")
            return
        }
        guard shared.admitConnection() || (closeOldestWaiting() && shared.admitConnection()) else {
            shared.releaseConnection(from: client)
            reject(channel, "too many connections")
            return
        }
        let connection = HTTPConnection(channel: channel, shared: shared, state: self)
        channel.handler = connection
        connections[ObjectIdentifier(connection)] = connection
        appendWaiting(connection)
        do {
            try channel.activate()
        } catch {
            channel.close()
        }
    }

    /// Answers 503 in the responder's error shape and closes, without reading a request.
    private func reject(_ channel: Channel, _ message: String) {
        var response = shared.responder.errorResponse(status: .serviceUnavailable, message: message)
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

    // MARK: - Connections waiting for their first head

    /// Adds a new connection as the newest of those that have not sent a complete request head yet.
    private func appendWaiting(_ connection: HTTPConnection) {
        connection.olderWaiting = newestWaiting
        newestWaiting?.newerWaiting = connection
        newestWaiting = connection
        if oldestWaiting == nil { oldestWaiting = connection }
        connection.isWaiting = true
    }

    /// Takes a connection off the waiting list: it sent its first complete head, or closed.
    func removeWaiting(_ connection: HTTPConnection) {
        guard connection.isWaiting else { return }
        connection.isWaiting = false
        if let older = connection.olderWaiting {
            older.newerWaiting = connection.newerWaiting
        } else {
            oldestWaiting = connection.newerWaiting
        }
        if let newer = connection.newerWaiting {
            newer.olderWaiting = connection.olderWaiting
        } else {
            newestWaiting = connection.olderWaiting
        }
        connection.olderWaiting = nil
        connection.newerWaiting = nil
    }

    /// Closes the oldest connection on this loop that has not sent a complete request head, freeing its slot.
    ///
    /// - Returns: whether there was one.
    private func closeOldestWaiting() -> Bool {
        guard let oldest = oldestWaiting else { return false }
        // Closing calls back `connectionClosed`, which takes it off the list and releases its admission; the
        // explicit removal only guarantees progress should a channel ever not call back.
        oldest.channel.close()
        removeWaiting(oldest)
        return true
    }

    func connectionClosed(_ connection: HTTPConnection) {
        removeWaiting(connection)
        if connections.removeValue(forKey: ObjectIdentifier(connection)) != nil {
            release(connection.channel)
        }
    }

    /// Gives back a closed connection's admission: the server's slot and its client's.
    private func release(_ channel: Channel) {
        shared.releaseConnection()
        if let address = channel.remoteAddress {
            shared.releaseConnection(from: ClientAddress(address))
        }
    }

    /// A connection switched to WebSocket: it keeps its admission, under its new owner.
    func upgraded(_ connection: HTTPConnection, to socket: WebSocketConnection) {
        guard connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
        webSockets[ObjectIdentifier(socket)] = socket
    }

    func webSocketClosed(_ socket: WebSocketConnection) {
        if webSockets.removeValue(forKey: ObjectIdentifier(socket)) != nil {
            release(socket.channel)
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
