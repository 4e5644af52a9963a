/// A thread pool's counters, for metrics: work submitted, and work that had to wait because every thread was busy.
package struct ThreadPoolStatistics: Sendable, Equatable {
    /// Work items submitted.
    package var submitted = 0
    /// Work items that found no idle thread when submitted, and queued behind others.
    package var waited = 0

    package init() {}
}
