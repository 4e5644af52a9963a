import BmobWire

/// One job's view of the writer's transaction: its changes run inside the job's savepoint, and its schema
/// changes go to a private copy of the catalog that the writer keeps only if the job succeeds. Each change
/// appends its journal rows (see ``StoreCoreWriteTransaction``) on the same connection, inside the transaction.
final class SQLWriteTransaction<Connection: SQLStoreConnection>: StoreWriteTransaction {
    let connection: Connection
    private let caller: JournalAuthor?
    private let time: Int64
    /// The store's largest document, in bytes.
    private let maximumDocumentBytes: Int
    private var isActive = true
    /// The catalog as this job sees it, including its own changes.
    var catalog: SchemaCatalog
    /// The `seq` of the last journal row this job appended; 0 when it appended none.
    private(set) var journalHead: Int64 = 0

    init(
        connection: Connection, catalog: SchemaCatalog, caller: JournalAuthor?, time: Int64,
        maximumDocumentBytes: Int = .max
    ) {
        self.maximumDocumentBytes = maximumDocumentBytes
        self.connection = connection
        self.catalog = catalog
        self.caller = caller
        self.time = time
    }

    /// Ends the transaction's validity; any later call traps.
    func invalidate() {
        isActive = false
    }

    func fetch(className: String, objectId: String) throws -> StoredObject? {
        let table = try SQLTableName(className: className)
        checkActive()
        guard catalog.contains(className) else { return nil }
        return try ObjectRows.fetch(connection, table, objectId: objectId)
    }

    func fetchDocument(className: String, objectId: String) throws -> StoredDocument? {
        let table = try SQLTableName(className: className)
        checkActive()
        guard catalog.contains(className) else { return nil }
        return try ObjectRows.fetchDocument(connection, table, objectId: objectId)
    }

    func count(className: String) throws -> Int {
        let table = try SQLTableName(className: className)
        checkActive()
        guard catalog.contains(className) else { return 0 }
        return try ObjectRows.count(connection, table)
    }

    func classNames() throws -> [String] {
        checkActive()
        return catalog.classNames
    }

    func schema(className: String) throws -> [String: FieldSchema] {
        checkActive()
        if let fields = catalog.classes[className] { return fields }
        _ = try SQLTableName(className: className)  // an unknown class's name is still checked
        return [:]
    }

    func lastJournalSeq() throws -> Int64 {
        checkActive()
        return try JournalRows.lastSeq(connection)
    }

    func insert(_ object: StoredObject) throws {
        checkActive()
        // One catalog lookup for both questions: is the name valid, and does its table exist yet.
        let table: SQLTableName
        if catalog.contains(object.className) {
            table = .cataloged(object.className)
        } else {
            table = try SQLTableName(className: object.className)
            try createClassIfNeeded(table, journaled: true)
        }
        // Encode the fields once: the size check, the data column and the journal's `after` share the text.
        let fieldsJSON = try documentJSON(object)
        journalHead = try ObjectRows.insertJournaled(
            connection, table, object, dataJSON: fieldsJSON,
            journal: JournalRows.values(
                className: object.className, objectId: object.objectId, op: .create, beforeJSON: nil,
                afterJSON: object.jsonBytes(fieldsJSON: fieldsJSON), author: caller, time: time))
        try announceIfSessionsDepend(on: object.className, .create)
    }

    func update(_ object: StoredObject) throws {
        let table = try SQLTableName(className: object.className)
        checkActive()
        let fieldsJSON = try documentJSON(object)
        guard catalog.contains(object.className),
            let before = try ObjectRows.fetch(connection, table, objectId: object.objectId),
            try ObjectRows.update(connection, table, object, dataJSON: fieldsJSON)
        else { throw StoreError(.notFound, "object not found") }
        try journal(object.className, object.objectId, .update, before: before.json, after: object.json)
    }

    @discardableResult
    func delete(className: String, objectId: String) throws -> StoredObject {
        let table = try SQLTableName(className: className)
        checkActive()
        guard catalog.contains(className),
            let before = try ObjectRows.delete(connection, table, objectId: objectId)
        else { throw StoreError(.notFound, "object not found") }
        try journalRemoved(try RelationRows.deleteOwner(connection, className: className, objectId: objectId))
        try journal(className, objectId, .delete, before: before.json, after: nil)
        return before
    }

    /// The fields' JSON text, within the store's largest document.
    private func documentJSON(_ object: StoredObject) throws(StoreError) -> [UInt8] {
        let bytes = JSONValue.object(object.fields).jsonBytes
        guard bytes.count <= maximumDocumentBytes else { throw StoreError.documentTooLarge(limit: maximumDocumentBytes) }
        return bytes
    }

    func recordFields(className: String, fields: [String: FieldSchema]) throws {
        checkActive()
        // Most writes bring no new field: a class in the catalog was validated when it was created and its
        // recorded fields when they were added, so there is nothing to check, write or sort.
        if let recorded = catalog.classes[className], fields.allSatisfy({ recorded[$0.key] == $0.value }) {
            return
        }
        let table = try SQLTableName(className: className)
        let existed = catalog.contains(className)
        var recorded = catalog.fields(of: className)
        var added: [(String, FieldSchema)] = []
        for name in fields.keys.sorted() {
            try StoreError.validateFieldName(name)
            let schema = fields[name]!
            if let existing = recorded[name] {
                guard existing == schema else {
                    throw StoreError(
                        .typeMismatch,
                        "invalid type for key '\(name)', expected '\(existing.displayName)', but got '\(schema.displayName)'",
                        fileID: nil, line: nil)
                }
            } else {
                recorded[name] = schema
                added.append((name, schema))
            }
        }
        guard !added.isEmpty || !existed else { return }
        let before = existed ? try classSchema(className) : nil
        try createClassIfNeeded(table, journaled: false)
        for (name, schema) in added {
            try SchemaRows.insert(connection, className: className, field: name, schema: schema)
        }
        catalog.classes[className] = recorded
        try journalSchema(className, before: before)
    }

    func removeField(className: String, field: String) throws {
        let table = try SQLTableName(className: className)
        checkActive()
        guard catalog.contains(className) else { throw StoreError(.notFound, "class not found") }
        try StoreError.validateFieldName(field)
        let holds = Connection.dialect.fieldType(try SQLFieldPath(field))
        let holders = try connection.rows("SELECT objectId FROM \(table.quoted) WHERE \(holds) IS NOT NULL", []) {
            $0.text(0) ?? ""
        }
        for objectId in holders {
            guard var object = try ObjectRows.fetch(connection, table, objectId: objectId) else { continue }
            object.fields[field] = nil
            try update(object)
        }
        try journalRemoved(try RelationRows.deleteKey(connection, className: className, key: field))
        let before = try classSchema(className)
        try SchemaRows.deleteField(connection, className: className, field: field)
        catalog.classes[className]?[field] = nil
        try journalSchema(className, before: before)
    }

    func dropClass(className: String) throws {
        let table = try SQLTableName(className: className)
        checkActive()
        guard catalog.contains(className) else { throw StoreError(.notFound, "class not found") }
        let schema = try classSchema(className)
        // Every object goes into the journal first, a page at a time, so that history and restore can bring
        // the class back.
        var last: String?
        while true {
            let objects = try ObjectRows.page(connection, table, after: last, limit: Self.dropPageSize)
            for object in objects {
                try journal(className, object.objectId, .dropClassObject, before: object.json, after: nil)
            }
            guard objects.count == Self.dropPageSize, let next = objects.last?.objectId else { break }
            last = next
        }
        try journalRemoved(try RelationRows.deleteClass(connection, className: className))
        try connection.dropClassTable(table)
        try SchemaRows.deleteClass(connection, className: className)
        try IndexRows.deleteClass(connection, className: className)
        try PermissionRows.set(connection, className: className, permissions: nil)
        catalog.classes[className] = nil
        catalog.permissions[className] = nil
        try journal(className, nil, .dropClass, before: schema.json, after: nil)
    }

    /// Objects a class drop reads and journals at a time.
    private static var dropPageSize: Int { 256 }

    func find(_ query: FindQuery) throws -> [StoredObject] {
        _ = try SQLTableName(className: query.className)
        checkActive()
        return try QueryRows.find(connection, catalog, query)
    }

    func findDocuments(_ query: FindQuery) throws -> [StoredDocument] {
        _ = try SQLTableName(className: query.className)
        checkActive()
        return try QueryRows.findDocuments(connection, catalog, query)
    }

    func count(_ query: FindQuery) throws -> Int {
        _ = try SQLTableName(className: query.className)
        checkActive()
        return try QueryRows.count(connection, catalog, query)
    }

    func aggregate(_ query: FindQuery) throws -> [[String: JSONValue]] {
        _ = try SQLTableName(className: query.className)
        checkActive()
        return try QueryRows.aggregate(connection, catalog, query)
    }

    func indexes(className: String) throws -> [StoredIndex] {
        _ = try SQLTableName(className: className)
        checkActive()
        return try IndexRows.list(connection, className: className)
    }

    func history(_ query: JournalQuery) throws -> [JournalEntry] {
        _ = try SQLTableName(className: query.className)
        checkActive()
        return try JournalRows.history(connection, query)
    }

    func deletedObjects(className: String, skip: Int, limit: Int) throws -> [JournalEntry] {
        _ = try SQLTableName(className: className)
        checkActive()
        return try JournalRows.deleted(connection, className: className, skip: skip, limit: limit)
    }

    func journalEntry(seq: Int64) throws -> JournalEntry? {
        checkActive()
        return try JournalRows.entry(connection, seq: seq)
    }

    func relationsRemoved(className: String, objectId: String, deleteSeq: Int64) throws -> [JournalRelationChange] {
        _ = try SQLTableName(className: className)
        checkActive()
        return try JournalRows.relationsRemoved(connection, className: className, objectId: objectId, deleteSeq: deleteSeq)
    }

    func pruneJournal(_ retention: JournalRetention, now: Int64, graceCutoff: Int64, limit: Int) throws -> Int {
        checkActive()
        return try JournalRows.prune(connection, retention, now: now, graceCutoff: graceCutoff, limit: limit)
    }

    func relationTargets(className: String, objectId: String, key: String) throws -> [PointerValue] {
        _ = try SQLTableName(className: className)
        try StoreError.validateFieldName(key)
        checkActive()
        return try RelationRows.targets(connection, className: className, objectId: objectId, key: key)
    }

    func createIndex(className: String, paths: [String], unique: Bool) throws {
        let table = try SQLTableName(className: className)
        let fieldPaths = try Self.indexPaths(paths)
        checkActive()
        let name = IndexRows.name(className: className, paths: fieldPaths)
        let existed = catalog.contains(className)
        let existing = try IndexRows.isUnique(connection, name: name)
        if existing == unique { return }
        let before = existed ? try classSchema(className) : nil
        if existing != nil {
            try dropIndexObjects(name)
            try IndexRows.delete(connection, name: name)
        }
        try createClassIfNeeded(table, journaled: false)
        let statement = IndexRows.createStatement(
            dialect: Connection.dialect, name: name, table: table, paths: fieldPaths, schema: catalog.fields(of: className), unique: unique)
        do {
            try connection.execute(statement)
        } catch {
            guard connection.constraintError(error).code == .duplicate else { throw error }
            throw StoreError(
                .duplicate, "unique index cannot has duplicate value: existing objects share a value",
                underlying: error)
        }
        for statement in IndexRows.statisticsStatements(
            dialect: Connection.dialect, name: name, table: table, paths: fieldPaths, schema: catalog.fields(of: className))
        {
            try connection.execute(statement)
        }
        try IndexRows.insert(connection, name: name, className: className, paths: fieldPaths, unique: unique)
        try journalSchema(className, before: before)
    }

    func dropIndex(className: String, paths: [String]) throws {
        _ = try SQLTableName(className: className)
        let fieldPaths = try Self.indexPaths(paths)
        checkActive()
        let name = IndexRows.name(className: className, paths: fieldPaths)
        guard try IndexRows.isUnique(connection, name: name) != nil else {
            throw StoreError(.notFound, "index not found")
        }
        let before = try classSchema(className)
        try dropIndexObjects(name)
        try IndexRows.delete(connection, name: name)
        try journalSchema(className, before: before)
    }

    /// Drops the index `name` and the statistics made with it.
    private func dropIndexObjects(_ name: SQLTableName) throws {
        try connection.execute("DROP INDEX \(name.quoted)")
        for statement in Connection.dialect.dropIndexStatistics(name: name.quoted) {
            try connection.execute(statement)
        }
    }

    func addRelation(className: String, objectId: String, key: String, targets: [PointerValue]) throws {
        try Self.validateRelation(className: className, key: key, targets: targets)
        checkActive()
        let added = try RelationRows.add(
            connection, className: className, objectId: objectId, key: key, targets: targets)
        guard !added.isEmpty else { return }
        let change = JournalRelationChange(key: key, targets: added)
        try journal(className, objectId, .addRelation, before: nil, after: change.json)
    }

    func removeRelation(className: String, objectId: String, key: String, targets: [PointerValue]) throws {
        try Self.validateRelation(className: className, key: key, targets: targets)
        checkActive()
        let removed = try RelationRows.remove(
            connection, className: className, objectId: objectId, key: key, targets: targets)
        guard !removed.isEmpty else { return }
        let change = JournalRelationChange(key: key, targets: removed)
        try journal(className, objectId, .removeRelation, before: change.json, after: nil)
    }

    private static func indexPaths(_ paths: [String]) throws -> [SQLFieldPath] {
        guard !paths.isEmpty else { throw StoreError.invalidQuery("an index needs at least one field") }
        return try paths.map { path throws(StoreError) in try SQLFieldPath(path) }
    }

    private static func validateRelation(className: String, key: String, targets: [PointerValue]) throws {
        _ = try SQLTableName(className: className)
        try StoreError.validateFieldName(key)
        for target in targets {
            _ = try SQLTableName(className: target.className)
        }
    }

    /// Creates the class's table unless it exists; `journaled` journals the creation as a `schema` entry (callers
    /// that change the schema further journal the whole change once instead).
    private func createClassIfNeeded(_ table: SQLTableName, journaled: Bool) throws {
        guard !catalog.contains(table.name) else { return }
        try connection.createClassTable(table)
        catalog.classes[table.name] = [:]
        if journaled { try journalSchema(table.name, before: nil) }
    }

    /// The class's schema as this job sees it: recorded fields, permissions and declared indexes.
    func classSchema(_ className: String) throws -> StoredClassSchema {
        StoredClassSchema(
            fields: catalog.fields(of: className), permissions: catalog.permissions[className],
            indexes: try IndexRows.list(connection, className: className))
    }

    /// Journals a schema change of a class that exists now: `before` (``StoredClassSchema``) to the current schema.
    func journalSchema(_ className: String, before: StoredClassSchema?) throws {
        try journal(className, nil, .schema, before: before?.json, after: try classSchema(className).json)
    }

    /// Journals relation members that were removed with something else: one `removeRelation` per owner and key.
    private func journalRemoved(_ members: [RelationRows.Member]) throws {
        guard !members.isEmpty else { return }
        for (className, objectId, change) in RelationRows.changes(members) {
            try journal(className, objectId, .removeRelation, before: change.json, after: nil)
        }
    }

    private func journal(
        _ className: String,
        _ objectId: String?,
        _ op: JournalOperation,
        before: JSONValue?,
        after: JSONValue?
    ) throws {
        journalHead = try JournalRows.append(
            connection, className: className, objectId: objectId, op: op, before: before, after: after,
            author: caller, time: time)
        try announceIfSessionsDepend(on: className, op)
    }

    /// Role changes (memberships decide a caller's roles) and removed users change what a cached session stands
    /// for: other server nodes are told to drop their session caches.
    private func announceIfSessionsDepend(on className: String, _ op: JournalOperation) throws {
        if className == "_Role" || (className == "_User" && (op == .delete || op == .dropClassObject)) {
            try connection.announceSessionChange()
        }
    }

    func checkActive() {
        precondition(isActive, "a store transaction was used outside its closure")
    }
}
