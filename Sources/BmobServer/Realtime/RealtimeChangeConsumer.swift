/// A door's side of a journal feed (``RealtimeJournalFeed``): it receives the app's committed changes while
/// it has interest there, decides which of its listeners may hear each one, encodes it its own way and
/// publishes it to its ``RealtimeHub``.
package protocol RealtimeChangeConsumer: AnyObject, Sendable {
    /// Changes of `runtime`'s app that committed after the consumer's interest began, in journal order. The
    /// feed calls it from its task, one batch at a time, and reads no further until it returns.
    func consume(_ changes: [RealtimeChange], of runtime: AppRuntime) async
}
