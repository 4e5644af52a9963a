import BmobIO

/// The committed schema catalog, shared between the writer, which replaces it after each COMMIT, and the
/// readers, which read it.
final class SchemaRegistry: @unchecked Sendable {
    // Invariant: `catalog` and `version` are only read or replaced inside `lock.withLock`.
    private let lock = Lock()
    private var catalog: SchemaCatalog
    /// The journal `seq` the published catalog is as of.
    private var version: Int64 = 0

    init(_ catalog: SchemaCatalog) {
        self.catalog = catalog
    }

    /// The catalog as of the last commit.
    var committed: SchemaCatalog {
        lock.withLock { catalog }
    }

    /// Publishes a catalog read or written as of journal `seq`; one older than the catalog published last is
    /// ignored, so that a node's journal listener, which reloads the catalog after other nodes' commits, never
    /// replaces what this node's writer published after a later commit.
    func publish(_ catalog: SchemaCatalog, asOf seq: Int64) {
        lock.withLock {
            guard seq >= version else { return }
            self.catalog = catalog
            version = seq
        }
    }
}
