import BmobWire

/// What the channels door's ``RealtimeHub`` is keyed by: an app's channel, for connections of one event prefix
/// (a `bird` connection gets `bird_internal:` frames where a `pusher` one gets `pusher_internal:`, so each
/// prefix has its own listeners and its own encoding of an event).
struct PusherChannelKey: Hashable, Sendable {
    /// The app's Application ID.
    var applicationId: String
    /// The channel's name.
    var channel: String
    /// The event prefix of the connections listening under this key.
    var prefix: PusherEventPrefix
}
