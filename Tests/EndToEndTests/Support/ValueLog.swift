import Foundation

/// Values appended from any thread (progress callbacks, uploader events), read once the work is done.
final class ValueLog<Value: Sendable>: @unchecked Sendable {
    // Invariant: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) {
        lock.withLock { stored.append(value) }
    }

    var values: [Value] {
        lock.withLock { stored }
    }
}
