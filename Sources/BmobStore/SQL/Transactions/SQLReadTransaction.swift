import BmobWire

/// A read on a pooled reader connection of either engine, inside one transaction so every call sees one snapshot
/// (SQLite: a WAL snapshot; PostgreSQL: `REPEATABLE READ`).
///
/// Existence of a class is decided by the snapshot itself (the writer, or another node, may create or drop tables
/// at any time), so a missing table reads as an absent class rather than an error.
final class SQLReadTransaction<Connection: SQLStoreConnection>: StoreReadTransaction {
    let connection: Connection
    /// The schema as this read sees it: the committed catalog, reloaded when a class it lacks has a table (another
    /// server node made it after this node's catalog was published).
    private(set) var catalog: SchemaCatalog
    private let ticket: StoreReadTicket
    private var isActive = true

    init(connection: Connection, catalog: SchemaCatalog, ticket: StoreReadTicket) {
        self.connection = connection
        self.catalog = catalog
        self.ticket = ticket
    }

    /// Ends the transaction's validity; any later call traps.
    func invalidate() {
        isActive = false
    }

    func fetch(className: String, objectId: String) throws -> StoredObject? {
        let table = try SQLTableName(className: className)
        try checkUsable()
        return try ifTableExists(table) { try ObjectRows.fetch(connection, table, objectId: objectId) } ?? nil
    }

    func fetchDocument(className: String, objectId: String) throws -> StoredDocument? {
        let table = try SQLTableName(className: className)
        try checkUsable()
        return try ifTableExists(table) { try ObjectRows.fetchDocument(connection, table, objectId: objectId) } ?? nil
    }

    func count(className: String) throws -> Int {
        let table = try SQLTableName(className: className)
        try checkUsable()
        return try ifTableExists(table) { try ObjectRows.count(connection, table) } ?? 0
    }

    func classNames() throws -> [String] {
        try checkUsable()
        return catalog.classNames
    }

    func schema(className: String) throws -> [String: FieldSchema] {
        let table = try SQLTableName(className: className)
        try checkUsable()
        _ = try knows(table)
        return catalog.fields(of: className)
    }

    func lastJournalSeq() throws -> Int64 {
        try checkUsable()
        return try JournalRows.lastSeq(connection)
    }

    func find(_ query: FindQuery) throws -> [StoredObject] {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try QueryRows.find(connection, catalog, query) } ?? []
    }

    func findDocuments(_ query: FindQuery) throws -> [StoredDocument] {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try QueryRows.findDocuments(connection, catalog, query) } ?? []
    }

    func count(_ query: FindQuery) throws -> Int {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try QueryRows.count(connection, catalog, query) } ?? 0
    }

    func aggregate(_ query: FindQuery) throws -> [[String: JSONValue]] {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try QueryRows.aggregate(connection, catalog, query) } ?? []
    }

    func indexes(className: String) throws -> [StoredIndex] {
        _ = try SQLTableName(className: className)
        try checkUsable()
        return try IndexRows.list(connection, className: className)
    }

    func history(_ query: JournalQuery) throws -> [JournalEntry] {
        _ = try SQLTableName(className: query.className)
        try checkUsable()
        return try JournalRows.history(connection, query)
    }

    func deletedObjects(className: String, skip: Int, limit: Int) throws -> [JournalEntry] {
        _ = try SQLTableName(className: className)
        try checkUsable()
        return try JournalRows.deleted(connection, className: className, skip: skip, limit: limit)
    }

    func journalEntry(seq: Int64) throws -> JournalEntry? {
        try checkUsable()
        return try JournalRows.entry(connection, seq: seq)
    }

    func relationsRemoved(className: String, objectId: String, deleteSeq: Int64) throws -> [JournalRelationChange] {
        _ = try SQLTableName(className: className)
        try checkUsable()
        return try JournalRows.relationsRemoved(connection, className: className, objectId: objectId, deleteSeq: deleteSeq)
    }

    func relationTargets(className: String, objectId: String, key: String) throws -> [PointerValue] {
        _ = try SQLTableName(className: className)
        try StoreError.validateFieldName(key)
        try checkUsable()
        return try RelationRows.targets(connection, className: className, objectId: objectId, key: key)
    }

    /// Journal entries after `seq`, for ``Store/journal(after:limit:)``.
    func journal(after seq: Int64, limit: Int) throws -> [JournalEntry] {
        try checkUsable()
        return try JournalRows.entries(connection, after: seq, limit: limit)
    }

    /// Whether the class exists: known to the catalog, or a table the catalog lacks because another server node
    /// made it after this node's catalog was published (the catalog is then reloaded, so a client that wrote
    /// through one node reads through another at once). On one node the catalog is published before a write that
    /// made a class returns, so the table check runs only for classes that do not exist.
    private func knows(_ table: SQLTableName) throws -> Bool {
        if catalog.contains(table.name) { return true }
        guard try connection.classTableExists(table) else { return false }
        catalog = try SchemaRows.loadCatalog(connection)
        return catalog.contains(table.name)
    }

    func checkUsable() throws {
        precondition(isActive, "a store transaction was used outside its closure")
        try ticket.checkCancelled()
    }

    /// Runs `body`; when it fails because the table is missing from this snapshot, returns `nil`.
    private func ifTableExists<T>(_ table: SQLTableName, _ body: () throws -> T) throws -> T? {
        // Asking for a table that does not exist would abort a PostgreSQL transaction: the catalog decides first.
        guard try knows(table) else { return nil }
        do {
            return try body()
        } catch let error as StoreError where connection.mayBeMissingTable(error) {
            if connection.isInFailedTransaction { throw error }
            if try connection.classTableExists(table) { throw error }
            return nil
        }
    }
}
