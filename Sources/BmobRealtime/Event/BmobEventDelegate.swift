/// Receives a ``BmobEvent``'s connection changes and messages on the main queue.
///
/// Set it with `event.delegate = observer`; the event holds it weakly, so keep the observer alive
/// yourself. Delegates and any number of ``BmobEvent/eventStream()`` streams can be used together; each
/// receives every message. Every method has an empty default, so implement only those you need.
///
/// ```swift
/// final class RealtimeObserver: BmobEventDelegate {
///     func bmobEvent(_ event: BmobEvent, didReceiveMessage message: BmobEventMessage) {
///         print(message.rawValue)
///     }
/// }
/// ```
///
/// ## Topics
/// ### Connection
/// - ``bmobEventDidConnect(_:)``
/// - ``bmobEventCanStartListen(_:)``
/// - ``bmobEventDidDisconnect(_:error:)``
/// - ``bmobEvent(_:didFailWithError:)``
/// ### Messages
/// - ``bmobEvent(_:didReceiveMessage:)``
@MainActor
public protocol BmobEventDelegate: AnyObject, Sendable {
    /// The server sent its socket.io connect packet (`1::`): ``BmobEvent/isConnected`` is now `true`.
    ///
    /// - Parameter event: the event.
    func bmobEventDidConnect(_ event: BmobEvent)

    /// The server is ready for subscriptions (`client_send_data`); those registered earlier were just sent.
    ///
    /// - Parameter event: the event.
    func bmobEventCanStartListen(_ event: BmobEvent)

    /// A change arrived for one of the subscriptions.
    ///
    /// - Parameters:
    ///   - event: the event.
    ///   - message: the change.
    func bmobEvent(_ event: BmobEvent, didReceiveMessage message: BmobEventMessage)

    /// Connecting failed (the handshake, the WebSocket, or an error from the server), or a listen call was
    /// invalid. With ``BmobEvent/autoReconnect`` the event tries again every 5 seconds.
    ///
    /// - Parameters:
    ///   - event: the event.
    ///   - error: a `BmobError`: `.notInitialized`, `.timeout`, `.invalidParameter(reason:)`, or
    ///     `.networkError(underlying:)` with the cause.
    func bmobEvent(_ event: BmobEvent, didFailWithError error: any Error)

    /// A connection that had connected ended.
    ///
    /// - Parameters:
    ///   - event: the event.
    ///   - error: `nil` after ``BmobEvent/disconnect()``; otherwise a `BmobError.networkError(underlying:)`
    ///     saying why the connection dropped.
    func bmobEventDidDisconnect(_ event: BmobEvent, error: (any Error)?)
}

extension BmobEventDelegate {
    /// Does nothing.
    public func bmobEventDidConnect(_ event: BmobEvent) {}

    /// Does nothing.
    public func bmobEventCanStartListen(_ event: BmobEvent) {}

    /// Does nothing.
    public func bmobEvent(_ event: BmobEvent, didReceiveMessage message: BmobEventMessage) {}

    /// Does nothing.
    public func bmobEvent(_ event: BmobEvent, didFailWithError error: any Error) {}

    /// Does nothing.
    public func bmobEventDidDisconnect(_ event: BmobEvent, error: (any Error)?) {}
}
