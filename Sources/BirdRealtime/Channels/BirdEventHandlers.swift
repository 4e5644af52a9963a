import BmobWire
import Foundation

/// The handlers bound on a channel or on the member, by event name, and the last data of the *sticky* events.
///
/// A sticky event (a channel's `subscription_succeeded` or `subscription_error`) is replayed to a handler bound after
/// it was delivered: ``bind(_:_:)`` and ``call(_:_:sticky:_:)`` each read and write under one lock, so a handler
/// bound concurrently with a delivery is called exactly once, by the delivery or by the replay.
///
/// Invariant for `@unchecked Sendable`: `handlers` and `sticky` are read and written only while `lock` is held, and
/// handlers are called after it is released.
final class BirdEventHandlers: @unchecked Sendable {
    typealias Handler = @Sendable (Any?) -> Void

    private let lock = NSLock()
    private var handlers: [String: [Handler]] = [:]
    /// The last data of each sticky event delivered (`null` for none).
    private var sticky: [String: JSONValue] = [:]

    /// Adds a handler for `event`.
    ///
    /// - Returns: whether `event` is sticky and was delivered before, so the caller replays it to `handler`.
    @discardableResult
    func bind(_ event: String, _ handler: @escaping Handler) -> Bool {
        lock.withLock {
            handlers[event, default: []].append(handler)
            return sticky[event] != nil
        }
    }

    /// Removes the handlers of `event`, or all when `event` is `nil`.
    func unbind(_ event: String?) {
        lock.withLock {
            if let event { handlers[event] = nil } else { handlers = [:] }
        }
    }

    /// The last data of a sticky event.
    func stickyData(_ event: String) -> JSONValue? {
        lock.withLock { sticky[event] }
    }

    /// Records a sticky event without calling anyone (a refusal known when the channel is made).
    func setSticky(_ event: String, _ data: JSONValue) {
        lock.withLock { sticky[event] = data }
    }

    /// Forgets a sticky event (a success that a later failure replaced).
    func clearSticky(_ event: String) {
        lock.withLock { _ = sticky.removeValue(forKey: event) }
    }

    /// Calls the handlers of `event`; on the delivery queue.
    ///
    /// - Parameters:
    ///   - event: the event name.
    ///   - data: the event's data.
    ///   - isSticky: whether to keep the data for handlers bound later.
    ///   - value: the Foundation value handlers receive.
    func call(_ event: String, _ data: JSONValue?, sticky isSticky: Bool = false, _ value: (JSONValue?) -> Any?) {
        let bound = lock.withLock { () -> [Handler] in
            if isSticky { sticky[event] = data ?? .null }
            return handlers[event] ?? []
        }
        guard !bound.isEmpty else { return }
        let argument = value(data)
        for handler in bound { handler(argument) }
    }
}
