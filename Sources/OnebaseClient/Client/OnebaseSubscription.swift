/// A live query's subscription, returned by ``OnebaseClient/subscribe(_:_:_:)``: keep it while the view shows the
/// results, and call ``cancel()`` when it goes away.
///
/// Dropping the last reference does not cancel it; only ``cancel()`` (or releasing the client) does.
public final class OnebaseSubscription: Sendable {
    private weak let client: OnebaseClient?
    private let id: Int

    init(client: OnebaseClient?, id: Int) {
        self.client = client
        self.id = id
    }

    /// Stops the updates: `onUpdate` is not called again, even for results already on their way to the main queue.
    /// When this was the query's last subscription the server stops running it. Calling it again does nothing.
    public func cancel() {
        client?.unsubscribe(id)
    }
}
