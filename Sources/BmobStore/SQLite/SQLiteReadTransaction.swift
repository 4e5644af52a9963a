import BmobWire

/// A read on a pooled reader connection, inside `BEGIN … COMMIT` so every call sees one WAL snapshot.
///
/// Existence of a class is decided by the snapshot itself (the writer may create or drop tables at any
/// time), so a missing table reads as an absent class rather than an error.
final class SQLiteReadTransaction: StoreReadTransaction {
    let connection: SQLiteConnection
    let catalog: SchemaCatalog
    private let ticket: SQLiteReadTicket
    private var isActive = true

    init(connection: SQLiteConnection, catalog: SchemaCatalog, ticket: SQLiteReadTicket) {
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
        return try ifTableExists(table) { try SQLiteObjectRows.fetch(connection, table, objectId: objectId) } ?? nil
    }

    func count(className: String) throws -> Int {
        let table = try SQLTableName(className: className)
        try checkUsable()
        return try ifTableExists(table) { try SQLiteObjectRows.count(connection, table) } ?? 0
    }

    func classNames() throws -> [String] {
        try checkUsable()
        return catalog.classNames
    }

    func schema(className: String) throws -> [String: FieldSchema] {
        _ = try SQLTableName(className: className)
        try checkUsable()
        return catalog.fields(of: className)
    }

    func lastJournalSeq() throws -> Int64 {
        try checkUsable()
        return try SQLiteJournalRows.lastSeq(connection)
    }

    func find(_ query: FindQuery) throws -> [StoredObject] {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try SQLiteQueryRows.find(connection, catalog, query) } ?? []
    }

    func findDocuments(_ query: FindQuery) throws -> [StoredDocument] {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try SQLiteQueryRows.findDocuments(connection, catalog, query) } ?? []
    }

    func count(_ query: FindQuery) throws -> Int {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try SQLiteQueryRows.count(connection, catalog, query) } ?? 0
    }

    func aggregate(_ query: FindQuery) throws -> [[String: JSONValue]] {
        let table = try SQLTableName(className: query.className)
        try checkUsable()
        return try ifTableExists(table) { try SQLiteQueryRows.aggregate(connection, catalog, query) } ?? []
    }

    func indexes(className: String) throws -> [[String]] {
        _ = try SQLTableName(className: className)
        try checkUsable()
        return try SQLiteIndexRows.paths(connection, className: className)
    }

    func relationTargets(className: String, objectId: String, key: String) throws -> [PointerValue] {
        _ = try SQLTableName(className: className)
        try StoreError.validateFieldName(key)
        try checkUsable()
        return try SQLiteRelationRows.targets(connection, className: className, objectId: objectId, key: key)
    }

    /// The SQL and plan of a find, for ``SQLiteStore/explain(_:)``.
    func explain(_ query: FindQuery) throws -> SQLiteQueryPlan {
        _ = try SQLTableName(className: query.className)
        try checkUsable()
        return try SQLiteQueryRows.explain(connection, catalog, query)
    }

    /// Journal entries after `seq`, for ``SQLiteStore/journal(after:limit:)``.
    func journal(after seq: Int64, limit: Int) throws -> [JournalEntry] {
        try checkUsable()
        return try SQLiteJournalRows.entries(connection, after: seq, limit: limit)
    }

    /// Names of applied migrations, for ``SQLiteStore/appliedMigrations()``.
    func appliedMigrations() throws -> [String] {
        try checkUsable()
        return try SQLiteMigrator.appliedNames(connection)
    }

    func checkUsable() throws {
        precondition(isActive, "a store transaction was used outside its closure")
        try ticket.checkCancelled()
    }

    /// Runs `body`; when it fails because the table is missing from this snapshot, returns `nil`.
    private func ifTableExists<T>(_ table: SQLTableName, _ body: () throws -> T) throws -> T? {
        do {
            return try body()
        } catch let error as StoreError where error.sqliteCode?.primary == .error {
            if try SQLiteObjectRows.tableExists(connection, table) { throw error }
            return nil
        }
    }
}
