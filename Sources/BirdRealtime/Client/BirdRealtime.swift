import Foundation
import BmobRealtime
import BmobWire

/// The Bird Realtime client: one WebSocket connection to the Bird edge, channels subscribed on it, and events
/// delivered as they are published.
///
/// ```swift
/// let bird = BirdRealtime(options: .init(appKey: "your-app-key", region: "us1"))
/// let orders = bird.subscribe("orders")
/// orders.bind("order-updated") { data in
///     print("order changed:", data ?? "")
/// }
/// ```
///
/// The client connects as soon as it is made and stays alive while it is connected or reconnecting, even when
/// the app keeps no reference to it; ``disconnect()`` ends it. It speaks Pusher's protocol 7 with the `bird`
/// event prefix on `wss://{host}/app/{appKey}`.
///
/// **Reconnection.** After a drop the client reconnects with exponential backoff and full jitter: a wait drawn
/// uniformly between 1 s and a cap that doubles from 1 s to 30 s with each failed attempt. Close codes
/// 4000–4099 are refusals and final: the client stops (``BirdConnectionState/failed``) and reports the code on
/// ``onError(_:)``. Codes 4200–4299 reconnect at once; everything else backs off. On every reconnection each
/// channel subscribes again with a fresh authorization, and a signed-in member signs in again (failures of that
/// automatic signin go to ``onSigninError(_:)``).
///
/// **Threading.** The client is `Sendable`; call it from any thread or task. Every handler runs on
/// ``BirdRealtimeOptions/deliveryQueue`` (the main queue by default), in the order events arrived.
///
/// ## Topics
/// ### Creating
/// - ``init(options:)``
/// - ``BirdRealtimeOptions``
/// ### Channels
/// - ``subscribe(_:)``
/// - ``unsubscribe(_:)``
/// - ``BirdChannel``
/// - ``PresenceChannel``
/// - ``BirdProtocol``
/// ### Members
/// - ``signin()``
/// - ``member``
/// - ``onSigninError(_:)``
/// ### Connection
/// - ``state``
/// - ``connectionId``
/// - ``connect()``
/// - ``disconnect()``
/// - ``onConnectionStateChange(_:)``
/// - ``onError(_:)``
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held; the
/// lock is never held across an `await` or while a handler runs (handlers run on the delivery queue).
public final class BirdRealtime: @unchecked Sendable {
    typealias Action = BirdConnectionStateMachine.Action
    typealias Timer = BirdConnectionStateMachine.Timer

    /// The options the client was made with.
    let options: BirdRealtimeOptions
    /// Events addressed to the signed-in member (see ``signin()``).
    public let member = BirdMember()

    let environment: BirdRealtimeEnvironment
    let endpoint: Result<BirdEndpoint, BirdRealtimeError>
    let lock = NSLock()
    var machine: BirdConnectionStateMachine
    /// The transport of each live attempt.
    var transports: [Int: any WebSocketTransport] = [:]
    var channelObjects: [String: BirdChannel] = [:]
    let timers = DriverTimers<Timer>()
    /// The ``signin()`` calls waiting, by id; each is resumed once, after being removed under the lock.
    var signinWaiters: [Int: CheckedContinuation<BirdSignin, any Error>] = [:]
    /// Ids of ``signin()`` calls made but not registered in `signinWaiters` yet.
    var unregisteredWaiters: Set<Int> = []
    /// Ids of ``signin()`` calls cancelled before they registered.
    var cancelledWaiters: Set<Int> = []
    var nextWaiterId = 0
    var stateHandlers: [@Sendable (BirdConnectionState, BirdConnectionState) -> Void] = []
    var errorHandlers: [@Sendable (BirdRealtimeError) -> Void] = []
    var signinErrorHandlers: [@Sendable (BirdRealtimeError) -> Void] = []
    /// The client itself while it is connecting, connected or waiting to reconnect, so that it outlives the app's
    /// references until ``disconnect()`` or a refusal.
    var keepAlive: BirdRealtime?

    /// Makes a client and starts connecting.
    ///
    /// - Parameter options: the app key, where to connect, and how to authorize.
    public init(options: BirdRealtimeOptions) {
        self.options = options
        let environment = BirdRealtimeEnvironment.current
        self.environment = environment
        self.endpoint = Result(catching: { () throws(BirdRealtimeError) in try BirdEndpoint(options: options) })
        self.machine = BirdConnectionStateMachine(backoff: environment.backoff, jitter: environment.random)
        environment.clientMade(self)
        connect()
    }

    deinit {
        // `timers` cancels its tasks as it goes.
        for transport in transports.values { transport.close(code: .normalClosure, reason: "") }
    }

    // MARK: - Connection

    /// The connection's state now.
    public var state: BirdConnectionState { lock.withLock { machine.connectionState } }

    /// The connection id the edge assigned (Pusher's `socket_id`), while connected.
    public var connectionId: String? { lock.withLock { machine.connectionId } }

    /// Connects, unless already connecting, connected or waiting to reconnect. A client connects when it is made;
    /// call this after ``disconnect()`` or a refusal.
    public func connect() {
        switch endpoint {
        case .success: handle { $0.connect() }
        case .failure(let error): handle { $0.configurationFailed(error) }
        }
    }

    /// Closes the connection and stops reconnecting. Channels and bindings stay, for a later ``connect()``.
    public func disconnect() {
        handle { $0.disconnect() }
    }

    /// Calls `handler` with the previous and the new state at each change.
    ///
    /// A client starts connecting in its initializer, and handlers are read when a change is delivered: on the
    /// main queue (the default), handlers registered in the same main-thread turn as the initializer see the
    /// first change, `initialized → connecting`; with another delivery queue that first change may be delivered
    /// before the handler is registered.
    ///
    /// - Parameter handler: called on the delivery queue.
    public func onConnectionStateChange(
        _ handler: @escaping @Sendable (_ previous: BirdConnectionState, _ current: BirdConnectionState) -> Void
    ) {
        lock.withLock { stateHandlers.append(handler) }
    }

    /// Calls `handler` with each error of the connection: the edge's `bird:error` frames (a rejected
    /// subscription, code `nil`; a rejected client event, 4301) and the refusal that ended the connection
    /// (4000–4099, such as 4009 when the member's session was ended elsewhere).
    ///
    /// - Parameter handler: called on the delivery queue.
    public func onError(_ handler: @escaping @Sendable (_ error: BirdRealtimeError) -> Void) {
        lock.withLock { errorHandlers.append(handler) }
    }

    /// Calls `handler` when the automatic signin after a reconnection fails (no ``signin()`` call is waiting to
    /// throw it).
    ///
    /// - Parameter handler: called on the delivery queue.
    public func onSigninError(_ handler: @escaping @Sendable (_ error: BirdRealtimeError) -> Void) {
        lock.withLock { signinErrorHandlers.append(handler) }
    }

    // MARK: - Channels

    /// Subscribes to a channel, now or as soon as the client is connected, and on every reconnection.
    ///
    /// Subscribing twice returns the same channel. A `presence-` channel is a ``PresenceChannel``. A name the
    /// protocol does not allow (more than 164 characters, characters outside `A-Za-z0-9_-=@,.;`, the reserved
    /// `#server-to-user-` form, encrypted and cache channels) gives a channel that is never subscribed and calls each
    /// handler bound to ``BirdProtocol/Event/subscriptionError`` once with the reason (`type` `InvalidChannel`).
    ///
    /// - Parameter name: the channel's name; `private-…` and `presence-…` need authorization.
    /// - Returns: the channel, to bind handlers to.
    public func subscribe(_ name: String) -> BirdChannel {
        let valid: PusherChannelName?
        let refusal: String?
        do {
            let channel = try PusherChannelName(validating: name)
            valid = channel.kind == .serverToUser ? nil : channel
            refusal = channel.kind == .serverToUser ? "#server-to-user- channels are subscribed by signin()" : nil
        } catch {
            valid = nil
            refusal = error.message
        }
        let refusalData: JSONValue? = refusal.map { ["type": "InvalidChannel", "error": .string($0)] }
        let channel = lock.withLock { () -> BirdChannel in
            if let valid, let existing = channelObjects[valid.rawValue] { return existing }
            let channel =
                name.hasPrefix(PusherChannelName.presencePrefix)
                ? PresenceChannel(name: name, client: self, refusal: refusalData)
                : BirdChannel(name: name, client: self, refusal: refusalData)
            if valid != nil { channelObjects[name] = channel }
            return channel
        }
        if let valid { handle { $0.subscribe(valid) } }
        return channel
    }

    /// Unsubscribes from a channel; its handlers receive nothing more.
    ///
    /// - Parameter name: the channel's name.
    public func unsubscribe(_ name: String) {
        lock.withLock { _ = channelObjects.removeValue(forKey: name) }
        handle { $0.unsubscribe(name) }
    }

    // MARK: - Members

    /// Signs this connection in as a member: the client POSTs `{"connection_id"}` to
    /// ``BirdRealtimeOptions/memberAuthEndpoint`` and sends the signed `user_data` to the edge.
    ///
    /// Call it once: the client signs in again after every reconnection by itself (failures then go to
    /// ``onSigninError(_:)``). Once signed in, events for the member arrive on ``member``. Waits until the client
    /// is connected.
    ///
    /// Cancelling the calling task makes this call throw `CancellationError`; the signin itself goes on.
    ///
    /// - Returns: the member, with its ``BirdSignin/memberId``.
    /// - Throws: `CancellationError` when the task is cancelled; ``BirdRealtimeError`` when there is no member
    ///   endpoint, the endpoint fails, or the connection is refused or disconnected before the signin completes (a
    ///   bad signature is refused with 4009).
    public func signin() async throws -> BirdSignin {
        guard options.memberAuthEndpoint != nil else {
            throw BirdRealtimeError(message: "signin() needs a memberAuthEndpoint")
        }
        let id = lock.withLock { () -> Int in
            nextWaiterId += 1
            unregisteredWaiters.insert(nextWaiterId)
            return nextWaiterId
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = lock.withLock { () -> Bool in
                    unregisteredWaiters.remove(id)
                    if cancelledWaiters.remove(id) != nil { return true }
                    signinWaiters[id] = continuation
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    handle { $0.signin() }
                }
            }
        } onCancel: {
            let waiter = lock.withLock { () -> CheckedContinuation<BirdSignin, any Error>? in
                if let waiter = signinWaiters.removeValue(forKey: id) { return waiter }
                // Not registered yet: the registration throws. Already resumed: nothing to do.
                if unregisteredWaiters.contains(id) { cancelledWaiters.insert(id) }
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    // MARK: - Internal

    func isSubscribed(_ name: String) -> Bool {
        lock.withLock { machine.isSubscribed(name) && channelObjects[name] != nil }
    }

    func trigger(_ event: String, channel: String, data: JSONValue) throws(BirdRealtimeError) {
        lock.lock()
        defer { lock.unlock() }
        let action = try machine.clientEvent(event, channel: channel, data: data)
        if case .send(let attempt, let text) = action { transports[attempt]?.send(.text(text)) }
    }
}
