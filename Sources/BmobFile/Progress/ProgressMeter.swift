import Foundation

/// Turns acknowledged byte counts into the `0.0...1.0` an upload's progress closure receives: monotonic,
/// below 1 until ``finish()``, each value reported once.
///
/// Thread safety: `state` is read and written only while `lock` is held, and the closure is called while
/// `reporting` is held, so that values reported from concurrent parts arrive in order; that is what makes
/// the `@unchecked Sendable` sound.
final class ProgressMeter: @unchecked Sendable {
    /// The largest value reported before ``finish()``.
    static let ceiling = 0.99

    private let lock = NSLock()
    private let reporting = NSLock()
    private let report: @Sendable (Double) -> Void
    private var total: Int64
    private var acknowledged: Int64 = 0
    private var last = -1.0

    /// A meter over `total` bytes.
    init(total: Int64, report: @escaping @Sendable (Double) -> Void) {
        self.total = total
        self.report = report
    }

    /// Reports where the meter stands now (0 at the start).
    func start() {
        send { fraction }
    }

    /// Counts `bytes` more as acknowledged.
    func advance(by bytes: Int64) {
        guard bytes > 0 else { return }
        send {
            acknowledged += bytes
            return fraction
        }
    }

    /// Reports 1.0: the file (or every file of a batch) is stored.
    func finish() {
        send { 1 }
    }

    /// The acknowledged share, capped at ``ceiling``. Call with `lock` held.
    private var fraction: Double {
        guard total > 0 else { return 0 }
        return min(Self.ceiling, Double(min(acknowledged, total)) / Double(total))
    }

    private func send(_ update: () -> Double) {
        reporting.withLock {
            let value: Double? = lock.withLock {
                let value = update()
                guard value > last else { return nil }
                last = value
                return value
            }
            if let value { report(value) }
        }
    }
}
