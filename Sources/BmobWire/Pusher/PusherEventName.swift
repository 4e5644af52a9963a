/// An event name as a connection's ``PusherEventPrefix`` reads it (``PusherEventPrefix/classify(_:)``).
package enum PusherEventName: Sendable, Hashable {
    /// A protocol event, `{prefix}:{name}`; the associated value is `name` (`subscribe`, `ping`).
    case protocolEvent(String)
    /// An internal event, `{prefix}_internal:{name}`; the associated value is `name` (`member_added`).
    case internalEvent(String)
    /// A client event: the whole name, which starts with `client-`.
    case clientEvent(String)
    /// Any other name, as published by an application through the HTTP API.
    case applicationEvent(String)

    /// `client-`, the start of events clients send to each other.
    package static let clientPrefix = "client-"
}
