/// Runs async jobs one at a time, in the order they were queued: the live-query engine's runs for commits and for
/// new subscriptions never overlap, so every result a socket gets is at least as new as the one before.
actor SyncSerialQueue {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `job` once every job queued before it has finished.
    func run<T: Sendable>(_ job: @Sendable () async -> T) async -> T {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
        let result = await job()
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
        return result
    }
}
