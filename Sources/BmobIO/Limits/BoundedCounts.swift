/// Counts per key, each bounded by a limit: connections per client address, realtime connections per app.
/// A key whose count drops to zero is forgotten, so the table holds only keys in use.
///
/// A value type with no locking of its own: its owner keeps it behind whatever guards its other state.
package struct BoundedCounts<Key: Hashable & Sendable>: Sendable {
    private var counts: [Key: Int] = [:]

    /// An empty table.
    package init() {}

    /// Counts one more for `key`.
    ///
    /// - Returns: `false`, counting nothing, when `key` already has `limit`.
    package mutating func admit(_ key: Key, limit: Int) -> Bool {
        let count = counts[key, default: 0]
        guard count < limit else { return false }
        counts[key] = count + 1
        return true
    }

    /// Counts one less for `key`; nothing happens for a key with no count.
    package mutating func release(_ key: Key) {
        guard let count = counts[key] else { return }
        counts[key] = count > 1 ? count - 1 : nil
    }

    /// The count of `key`.
    package subscript(key: Key) -> Int {
        counts[key, default: 0]
    }

    /// How many keys have a count.
    package var keyCount: Int { counts.count }
}
