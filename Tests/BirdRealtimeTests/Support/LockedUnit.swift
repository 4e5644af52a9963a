import Foundation

/// A random source a test can change.
///
/// Invariant for `@unchecked Sendable`: `stored` is read and written only while `lock` is held.
final class LockedUnit: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Double
    init(_ value: Double) { stored = value }
    var value: Double {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
