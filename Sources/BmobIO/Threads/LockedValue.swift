/// A value behind a ``Lock``, reached only through ``withLock(_:)``: the server side's replacement for
/// `Synchronization.Mutex`, with the same shape (STYLE.md, concurrency rule 10: TSan reports false races
/// inside `Mutex.withLock`).
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // Invariant: `value` is read and written only inside `withLock`, while `lock` is held; `Value` is
    // `Sendable`, so what a body returns may cross threads.
    private let lock = Lock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock.
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
