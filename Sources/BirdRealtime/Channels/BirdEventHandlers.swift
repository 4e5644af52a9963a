import BmobWire
import Foundation

/// The handlers bound on a channel or on the member, by event name.
///
/// Invariant for `@unchecked Sendable`: `handlers` is read and written only while `lock` is held, and handlers
/// are called after it is released.
final class BirdEventHandlers: @unchecked Sendable {
    typealias Handler = @Sendable (Any?) -> Void

    private let lock = NSLock()
    private var handlers: [String: [Handler]] = [:]

    /// Adds a handler for `event`.
    func bind(_ event: String, _ handler: @escaping Handler) {
        lock.withLock { handlers[event, default: []].append(handler) }
    }

    /// Removes the handlers of `event`, or all when `event` is `nil`.
    func unbind(_ event: String?) {
        lock.withLock {
            if let event { handlers[event] = nil } else { handlers = [:] }
        }
    }

    /// Calls the handlers of `event` with `data` as Foundation values; on the delivery queue.
    func call(_ event: String, _ data: JSONValue?) {
        let bound = lock.withLock { handlers[event] ?? [] }
        guard !bound.isEmpty else { return }
        let value = data.map(BirdJSON.foundation)
        for handler in bound { handler(value) }
    }

    /// Calls the handlers of `event` with a Foundation value; on the delivery queue.
    func call(_ event: String, foundation value: Any?) {
        let bound = lock.withLock { handlers[event] ?? [] }
        for handler in bound { handler(value) }
    }
}
