import BmobWire
import Foundation

/// A channel the client subscribed to with ``BirdRealtime/subscribe(_:)``: bind handlers to its events, and on
/// private and presence channels send client events to its other subscribers.
///
/// A name without a `private-` or `presence-` prefix is a public channel, readable by anyone with the app key.
/// Private and presence channels are authorized on every (re)connection by the client's authorizer or auth
/// endpoint; when that fails the channel emits ``BirdProtocol/Event/subscriptionError``. Presence channels are
/// ``PresenceChannel``s.
///
/// Handlers run on the client's delivery queue, in the order events arrived.
///
/// ## Topics
/// ### Receiving
/// - ``bind(_:_:)``
/// - ``unbind(_:)``
/// ### Sending
/// - ``trigger(_:data:)``
/// ### State
/// - ``name``
/// - ``isSubscribed``
///
/// Invariant for `@unchecked Sendable`: the stored state is immutable (`name`, `queue`) but for a weak reference to
/// the client, set once in `init`, and `handlers`, which keeps its own invariant.
public class BirdChannel: @unchecked Sendable {
    /// The channel's name, as passed to ``BirdRealtime/subscribe(_:)``.
    public let name: String
    weak var client: BirdRealtime?
    let handlers = BirdEventHandlers()
    /// The client's delivery queue.
    let queue: DispatchQueue

    /// A channel of `client`; `refusal` is the `subscription_error` data of a name that was refused.
    init(name: String, client: BirdRealtime, refusal: JSONValue? = nil) {
        self.name = name
        self.client = client
        self.queue = client.options.deliveryQueue
        if let refusal { handlers.setSticky(BirdProtocol.Event.subscriptionError, refusal) }
    }

    /// Calls `handler` with each `event` on the channel.
    ///
    /// `event` is an event name as published (`order-updated`), a client event (`client-typing`) or one of
    /// ``BirdProtocol/Event``. The data is the event's JSON as Foundation values (`[String: Any]`, `[Any]`,
    /// `String`, numbers, `Bool`, `NSNull`); data that is a string but not JSON comes as the `String`.
    ///
    /// ``BirdProtocol/Event/subscriptionSucceeded`` and ``BirdProtocol/Event/subscriptionError`` are sticky: a handler
    /// bound after the channel's last one was delivered is called once with it at once (on the delivery queue), so
    /// binding right after ``BirdRealtime/subscribe(_:)`` never misses them, whatever queue delivers.
    ///
    /// - Parameters:
    ///   - event: the event name.
    ///   - handler: called on the delivery queue with the event's data.
    public func bind(_ event: String, _ handler: @escaping @Sendable (_ data: Any?) -> Void) {
        guard handlers.bind(event, handler) else { return }
        queue.async { [self] in handler(value(of: event, handlers.stickyData(event))) }
    }

    /// Removes the handlers of `event`, or every handler when `event` is `nil`.
    ///
    /// - Parameter event: the event name, or `nil` for all.
    public func unbind(_ event: String? = nil) {
        handlers.unbind(event)
    }

    /// Whether the subscription is live on the current connection.
    public var isSubscribed: Bool {
        client?.isSubscribed(name) ?? false
    }

    /// Sends a client event to the channel's other subscribers (never back to this client).
    ///
    /// Only on subscribed private and presence channels, when the app allows client events; the edge refuses
    /// more than 10 a second with error 4301 on ``BirdRealtime/onError(_:)``.
    ///
    /// - Parameters:
    ///   - event: the event name; must start with `client-`.
    ///   - data: JSON values: a `[String: Any]` dictionary, array, string, number, `Bool` or `NSNull`.
    /// - Throws: ``BirdRealtimeError`` when the name does not start with `client-`, the channel is public or not
    ///   subscribed yet, the data is not JSON, or the event is over 10 KiB.
    public func trigger(_ event: String, data: Any) throws {
        guard let client else { throw BirdRealtimeError(message: "the client is gone") }
        try client.trigger(event, channel: name, data: BirdJSON.value(data))
    }

    /// Applies a presence change; on the delivery queue, before the event's handlers.
    func apply(_ change: BirdConnectionStateMachine.PresenceChange) {}

    /// Sets the presence member id; on the delivery queue.
    func setMyId(_ id: String?) {}

    /// The Foundation value handlers of `event` receive for `data`.
    func value(of event: String, _ data: JSONValue?) -> Any? {
        data.map(BirdJSON.foundation)
    }

    /// Delivers an event to the handlers; on the delivery queue.
    func deliver(_ event: String, data: JSONValue?, presence: BirdConnectionStateMachine.PresenceChange?) {
        if let presence { apply(presence) }
        switch event {
        case BirdProtocol.Event.subscriptionSucceeded:
            handlers.call(event, data, sticky: true) { value(of: event, $0) }
        case BirdProtocol.Event.subscriptionError:
            handlers.clearSticky(BirdProtocol.Event.subscriptionSucceeded)
            handlers.call(event, data, sticky: true) { value(of: event, $0) }
        default:
            handlers.call(event, data) { value(of: event, $0) }
        }
    }
}
