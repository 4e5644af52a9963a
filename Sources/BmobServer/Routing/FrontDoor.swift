/// The protocol a request came in through, recorded in the journal as the author of its writes.
package enum FrontDoor: String, Sendable {
    /// Plain REST on `/1/…` (`X-Bmob-*` headers).
    case rest
    /// The encrypted native protocol on `/8/…`.
    case native
    /// The sync protocol (`/apps/<applicationId>/api/…`): live queries, mutations and actions.
    case sync
}
