import BmobCore
import BmobWire
import Foundation

/// Realtime data (实时数据监听): subscriptions to table and row changes, pushed by the realtime service
/// over socket.io 0.9.
///
/// ```swift
/// let event = BmobEvent()                 // keep it, e.g. as a property
/// try await Bmob.initialize(appKey: "YOUR_APP_KEY")
/// let messages = event.eventStream()
/// event.listenTableChange(className: "Post")
/// event.listenRowChange(.deleteRow, tableName: "Post", objectId: "row-id")
/// event.connect()
/// for await message in messages {
///     print(message.action ?? "", message.className ?? "", message.objectId ?? "")
/// }
/// ```
///
/// Connecting takes two steps on the realtime address (`Bmob.resetIODomain`, else the server's `io`, else
/// `http://io.codenow.cn:3010`): `GET http(s)://host[:port]/socket.io/1/?t=<ms>` for a session id, then a
/// WebSocket to `ws(s)://host[:port]/socket.io/1/websocket/<sid>` with an `Origin: http(s)://host[:port]`
/// header. ``isConnected`` becomes `true` when the server's connect packet arrives; subscriptions registered
/// before are sent when the server says it is ready, later ones at once. Equal subscriptions are sent once.
///
/// With ``autoReconnect`` (the default), a failed attempt or an unexpected drop is followed every 5
/// seconds by a new handshake, and the subscriptions still registered are sent again once the server is
/// ready. Streams stay open meanwhile; changes made while disconnected are not replayed. ``disconnect()``
/// ends every stream and stops reconnecting but keeps the subscriptions: get a new ``eventStream()`` and
/// call ``connect()`` again to resume.
///
/// Threading: `BmobEvent` is `Sendable`; call it from the main actor or any task. Its state sits behind a
/// lock that is never held across an `await`. Delegate methods run on the main queue.
///
/// ## Topics
/// ### Creating
/// - ``init()``
/// - ``shared``
/// ### Connecting
/// - ``connect()``
/// - ``disconnect()``
/// - ``stop()``
/// - ``isConnected``
/// - ``autoReconnect``
/// ### Subscribing
/// - ``listenTableChange(_:tableName:)``
/// - ``listenRowChange(_:tableName:objectId:)``
/// - ``listenTableChange(className:)``
/// - ``listenRowChange(className:objectId:)``
/// - ``cancelListenTableChange(_:tableName:)``
/// - ``cancelListenRowChange(_:tableName:objectId:)``
/// - ``cancelListenTableChange(className:)``
/// - ``cancelListenRowChange(className:objectId:)``
/// ### Receiving
/// - ``eventStream()``
/// - ``delegate``
/// - ``BmobEventMessage``
/// - ``BmobEventDelegate``
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held;
/// the lock is never held across an `await` or while calling the delegate, a stream, or a task.
public final class BmobEvent: @unchecked Sendable {
    /// An optional shared instance, for apps that want one connection everywhere.
    public static let shared = BmobEvent()

    /// How many undelivered messages each stream keeps; when a consumer falls further behind, the oldest
    /// are dropped.
    package static let streamBufferSize = 1024

    let environment: BmobEventEnvironment
    let lock = NSLock()
    var machine: SocketIOClientStateMachine
    /// The WebSocket of each live attempt.
    var transports: [Int: any WebSocketTransport] = [:]
    /// The realtime address each attempt's handshake used, for its WebSocket.
    var addresses: [Int: BmobIOAddress] = [:]
    var streams: [Int: AsyncStream<BmobEventMessage>.Continuation] = [:]
    var nextStreamID = 0
    weak var delegateStorage: (any BmobEventDelegate)?
    var handshakeTask: Task<Void, Never>?
    var connectTask: Task<Void, Never>?
    var reconnectTask: Task<Void, Never>?
    var watchdogTask: Task<Void, Never>?

    /// A new, disconnected event object using the SDK's shared client.
    ///
    /// Keep it (as a property, say) for as long as you listen; releasing it closes its connection.
    public convenience init() {
        self.init(environment: .live())
    }

    /// An event object with its own client, transports, handshake and timing (tests).
    ///
    /// - Parameter environment: what it talks to.
    package init(environment: BmobEventEnvironment) {
        self.environment = environment
        machine = SocketIOClientStateMachine(reconnectDelay: environment.reconnectDelay)
    }

    deinit {
        for transport in transports.values { transport.close(code: .goingAway, reason: "") }
        for task in [handshakeTask, connectTask, reconnectTask, watchdogTask] { task?.cancel() }
        for continuation in streams.values { continuation.finish() }
    }

    /// The object told about connection changes and messages, on the main queue. Held weakly.
    public var delegate: (any BmobEventDelegate)? {
        get { lock.withLock { delegateStorage } }
        set { lock.withLock { delegateStorage = newValue } }
    }

    /// Whether a dropped connection or a failed attempt is retried every 5 seconds; `true` by default.
    ///
    /// When `false`, a failure or drop ends the event streams, as ``disconnect()`` does.
    public var autoReconnect: Bool {
        get { lock.withLock { machine.autoReconnect } }
        set { lock.withLock { machine.autoReconnect = newValue } }
    }

    /// Whether the connection is up: the server's connect packet arrived and the connection has not ended.
    public var isConnected: Bool {
        lock.withLock { machine.isConnected }
    }

    /// Connects, unless already connected or connecting. Returns at once; progress reaches the delegate.
    ///
    /// `Bmob.initialize(appKey:)` must have been called; an initialize still running is waited for.
    public func connect() {
        handle { $0.connectRequested() }
    }

    /// Closes the connection, stops reconnecting and ends every event stream. Subscriptions are kept:
    /// a new ``eventStream()`` and ``connect()`` resume with them.
    public func disconnect() {
        let tasks = lock.withLock { [handshakeTask, connectTask, reconnectTask, watchdogTask] }
        for task in tasks { task?.cancel() }
        handle { $0.disconnectRequested() }
    }

    /// Same as ``disconnect()``.
    public func stop() {
        disconnect()
    }

    /// A new stream of every change for the registered subscriptions, from now on.
    ///
    /// Any number of streams (and the ``delegate``) can be used at once; each gets every message.
    /// Streams stay open while the connection reconnects and end with ``disconnect()`` (or, without
    /// ``autoReconnect``, when the connection drops). Cancelling the task that reads one stream ends that
    /// stream only. A stream keeps up to 1024 unread messages; beyond that the oldest are dropped.
    ///
    /// - Returns: the stream.
    public func eventStream() -> AsyncStream<BmobEventMessage> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: BmobEventMessage.self, bufferingPolicy: .bufferingNewest(Self.streamBufferSize))
        let id = lock.withLock { () -> Int in
            nextStreamID += 1
            streams[nextStreamID] = continuation
            return nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.streams.removeValue(forKey: id) }
        }
        return stream
    }
}
