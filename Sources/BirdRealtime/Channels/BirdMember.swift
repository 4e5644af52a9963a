import BmobWire
import Foundation

/// Events addressed to the signed-in member (``BirdRealtime/signin()``): what the server publishes to
/// `#server-to-user-{memberId}`.
///
/// ```swift
/// bird.member.bind("order.shipped") { data in
///     print("addressed to me:", data ?? "")
/// }
/// ```
///
/// Bindings stay across reconnects and the automatic re-signin.
///
/// Invariant for `@unchecked Sendable`: the only stored state is `handlers`, which keeps its own invariant.
public final class BirdMember: @unchecked Sendable {
    let handlers = BirdEventHandlers()

    init() {}

    /// Calls `handler` with each `event` sent to the signed-in member.
    ///
    /// - Parameters:
    ///   - event: the event name.
    ///   - handler: called on the delivery queue with the event's data as Foundation values.
    public func bind(_ event: String, _ handler: @escaping @Sendable (_ data: Any?) -> Void) {
        handlers.bind(event, handler)
    }

    /// Removes the handlers of `event`, or every handler when `event` is `nil`.
    ///
    /// - Parameter event: the event name, or `nil` for all.
    public func unbind(_ event: String? = nil) {
        handlers.unbind(event)
    }
}
