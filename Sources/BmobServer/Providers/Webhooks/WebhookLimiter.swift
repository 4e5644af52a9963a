/// At most `limit` webhook calls in flight for the whole server; the others wait their turn, in order, so a slow
/// receiver cannot make the server open connections without bound.
actor WebhookLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a turn.
    func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Ends a turn; the longest waiter goes next.
    func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
