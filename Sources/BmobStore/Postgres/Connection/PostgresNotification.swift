/// A `NOTIFY` received on a listening connection.
struct PostgresNotification: Sendable, Equatable {
    /// The channel it was sent on.
    var channel: String
    /// Its payload (empty when none).
    var payload: String
}
