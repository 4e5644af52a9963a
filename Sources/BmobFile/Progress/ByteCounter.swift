import Foundation

/// A running total of bytes added from any thread.
///
/// Thread safety: `value` is touched only while `lock` is held, which makes the `@unchecked Sendable` sound.
final class ByteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0

    /// Adds `bytes`.
    func add(_ bytes: Int64) {
        lock.withLock { value += bytes }
    }

    /// The total so far.
    var total: Int64 {
        lock.withLock { value }
    }
}
