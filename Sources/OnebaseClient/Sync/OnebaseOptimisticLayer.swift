/// The optimistic updates of the mutations in flight, in call order (`sync.md` §1.5, §2.4): the effective result of
/// every query is the server's (or cached) result with these updates replayed over it, oldest first.
package struct OnebaseOptimisticLayer {
    /// An update closure, as passed to ``OnebaseClient/mutation(_:_:optimisticUpdate:)``.
    package typealias Update = @Sendable (OnebaseLocalStore) -> Void

    private var updates: [(requestId: Int64, update: Update)] = []

    /// An empty layer.
    package init() {}

    /// The number of updates applied.
    package var count: Int { updates.count }

    /// Adds the update of mutation `requestId`, applied after every earlier one.
    package mutating func add(requestId: Int64, _ update: @escaping Update) {
        updates.append((requestId, update))
    }

    /// Drops the update of mutation `requestId`, if it has one.
    ///
    /// - Returns: whether it had one.
    @discardableResult
    package mutating func remove(requestId: Int64) -> Bool {
        guard let index = updates.firstIndex(where: { $0.requestId == requestId }) else { return false }
        updates.remove(at: index)
        return true
    }

    /// The results with every update replayed over `base`, oldest first.
    ///
    /// - Parameter base: the server (or cached) result of each query; `nil` is loading.
    /// - Returns: the effective results, including queries the updates set that `base` lacks.
    package func view(over base: [OnebaseQueryToken: OnebaseValue?]) -> [OnebaseQueryToken: OnebaseValue?] {
        guard !updates.isEmpty else { return base }
        let store = OnebaseLocalStore(values: base)
        for entry in updates { entry.update(store) }
        return store.values
    }
}
