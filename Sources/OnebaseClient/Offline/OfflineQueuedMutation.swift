/// One mutation in the on-disk queue (`sync.md` §2.6).
struct OfflineQueuedMutation: Codable, Sendable, Hashable {
    /// Where the entry is.
    enum State: String, Codable, Sendable {
        /// Waiting to be sent.
        case pending
        /// Written before the mutation went out (write-ahead): an entry still `sent` at launch was lost with a
        /// crashed run, and is reported, never sent again.
        case sent
    }

    /// The entry's id (a UUID).
    var localId: String
    /// Its place in the queue.
    var seq: Int64
    /// The mutation's name, as the app called it.
    var name: String
    /// Its arguments.
    var args: [String: OnebaseValue]
    /// The user confirmed when it was made (`""` for signed out), or `nil` when none was confirmed yet.
    var ownerUserId: String?
    /// Seconds since 1970.
    var createdAt: Double
    /// Pending or sent.
    var state: State
}
