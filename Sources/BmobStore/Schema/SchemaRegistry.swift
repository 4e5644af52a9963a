import BmobIO

/// The committed schema catalog, shared between the writer, which replaces it after each COMMIT, and the
/// readers, which read it.
final class SchemaRegistry: @unchecked Sendable {
    // Invariant: `catalog` is only read or replaced inside `lock.withLock`.
    private let lock = Lock()
    private var catalog: SchemaCatalog

    init(_ catalog: SchemaCatalog) {
        self.catalog = catalog
    }

    /// The catalog as of the last commit.
    var committed: SchemaCatalog {
        lock.withLock { catalog }
    }

    /// Publishes the catalog of a transaction that has just committed.
    func publish(_ catalog: SchemaCatalog) {
        lock.withLock { self.catalog = catalog }
    }
}
