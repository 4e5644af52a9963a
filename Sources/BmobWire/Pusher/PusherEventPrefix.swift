/// The event-name prefix of a connection: `pusher` for interoperability with Pusher's own libraries (pusher-js,
/// pysher, pusher-websocket-swift), `bird` for Bird Realtime clients (`pusher.md` §10, §12).
///
/// Protocol events are `{prefix}:{name}` (`pusher:subscribe` ↔ `bird:subscribe`) and internal events
/// `{prefix}_internal:{name}` (`pusher_internal:member_added` ↔ `bird_internal:member_added`). Decoding accepts
/// only the connection's prefix: on a `bird` connection `pusher:subscribe` is not a protocol event (and is refused
/// as a client message, for not starting with `client-`). Encoding always uses it.
package enum PusherEventPrefix: String, Sendable, Hashable, CaseIterable {
    /// `pusher:` and `pusher_internal:`.
    case pusher
    /// `bird:` and `bird_internal:`.
    case bird

    /// `{prefix}:`, the start of protocol events.
    package var protocolPrefix: String { rawValue + ":" }

    /// `{prefix}_internal:`, the start of internal events.
    package var internalPrefix: String { rawValue + "_internal:" }

    /// The wire name of the protocol event `name`, such as `pusher:subscribe` for `subscribe`.
    ///
    /// - Parameter name: the event without prefix (`subscribe`, `error`, `connection_established`).
    /// - Returns: `{prefix}:{name}`.
    package func protocolEvent(_ name: String) -> String { protocolPrefix + name }

    /// The wire name of the internal event `name`, such as `pusher_internal:member_added` for `member_added`.
    ///
    /// - Parameter name: the event without prefix (`subscription_succeeded`, `member_added`).
    /// - Returns: `{prefix}_internal:{name}`.
    package func internalEvent(_ name: String) -> String { internalPrefix + name }

    /// Classifies a wire event name received on a connection with this prefix.
    ///
    /// - Parameter wireName: the `event` of a frame.
    /// - Returns: the protocol or internal event without prefix, or the name as an application or client event.
    package func classify(_ wireName: String) -> PusherEventName {
        // Bytes, not Characters: a combining mark after the ':' must not hide the prefix.
        if wireName.utf8.starts(with: protocolPrefix.utf8) {
            return .protocolEvent(String(decoding: wireName.utf8.dropFirst(protocolPrefix.utf8.count), as: UTF8.self))
        }
        if wireName.utf8.starts(with: internalPrefix.utf8) {
            return .internalEvent(String(decoding: wireName.utf8.dropFirst(internalPrefix.utf8.count), as: UTF8.self))
        }
        if wireName.utf8.starts(with: PusherEventName.clientPrefix.utf8) { return .clientEvent(wireName) }
        return .applicationEvent(wireName)
    }

    /// Rewrites an event name from one prefix to this one: `pusher:x` → `bird:x` and `pusher_internal:x` →
    /// `bird_internal:x` (and back); other names are returned unchanged.
    ///
    /// A plain name of the source family that this family reserves (`bird:x` sent as an application event on a
    /// `pusher` connection) comes out unchanged and so reads as a protocol event here: refuse reserved names when
    /// they are published (``isReserved(_:)``) to keep translation reversible.
    ///
    /// - Parameters:
    ///   - wireName: an event name as spelled for a connection with prefix `other`.
    ///   - other: the prefix `wireName` uses.
    /// - Returns: the same event as spelled for this prefix.
    package func translate(_ wireName: String, from other: Self) -> String {
        switch other.classify(wireName) {
        case .protocolEvent(let name): protocolEvent(name)
        case .internalEvent(let name): internalEvent(name)
        case .clientEvent, .applicationEvent: wireName
        }
    }

    /// Whether an event name starts with a reserved prefix of either family (`pusher:`, `pusher_internal:`,
    /// `bird:`, `bird_internal:`), which an application should not publish.
    ///
    /// - Parameter wireName: an event name.
    /// - Returns: `true` when the name is reserved for the protocol.
    package static func isReserved(_ wireName: String) -> Bool {
        allCases.contains {
            wireName.utf8.starts(with: $0.protocolPrefix.utf8) || wireName.utf8.starts(with: $0.internalPrefix.utf8)
        }
    }
}
