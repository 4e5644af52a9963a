package import BmobWire

/// What a read of the engine-neutral core can do: objects, queries, the schema registry, indexes, relations and
/// the journal's head. Valid only inside the closure given to ``Store/read(_:)`` or ``Store/write(caller:_:)``,
/// on the thread that runs it; hence not `Sendable`.
///
/// Services use ``StoreReadTransaction``, which adds the account and verification records
/// (``StoreAccountReadTransaction``).
package protocol StoreCoreReadTransaction {
    /// The object, or `nil` when the class or the object does not exist.
    /// - Throws: ``StoreError`` (``StoreError/Code/invalidClassName`` for a bad name).
    func fetch(className: String, objectId: String) throws -> StoredObject?

    /// Like ``fetch(className:objectId:)``, but the object's fields stay the JSON text the store holds.
    /// - Throws: ``StoreError`` (``StoreError/Code/invalidClassName`` for a bad name).
    func fetchDocument(className: String, objectId: String) throws -> StoredDocument?

    /// How many objects the class holds (0 for a class that does not exist).
    /// - Throws: ``StoreError``.
    func count(className: String) throws -> Int

    /// The classes that exist, in ascending order.
    /// - Throws: ``StoreError``.
    func classNames() throws -> [String]

    /// The fields the schema registry recorded for the class (empty for an unknown class).
    /// - Throws: ``StoreError``.
    func schema(className: String) throws -> [String: FieldSchema]

    /// The class-level permissions of a class (`{"get":{…},"find":{…},…}`), or `nil` when it has none.
    /// - Throws: ``StoreError``.
    func classPermissions(className: String) throws -> JSONValue?

    /// The `seq` of the newest journal entry this transaction sees, 0 when the journal is empty.
    /// - Throws: ``StoreError``.
    func lastJournalSeq() throws -> Int64

    /// The objects matching the query's condition, in its order (by distance for a `$nearSphere` without
    /// an order), after `skip`, at most `limit`. Whole objects: `keys` and `include` are the caller's.
    ///
    /// Returns `[]` for a class that does not exist.
    /// - Throws: ``StoreError``: ``StoreError/Code/invalidQuery`` (Bmob 102) for an invalid `$regex`, date or
    ///   operator, or an aggregate name in `order`; ``StoreError/Code/invalidClassName`` and
    ///   ``StoreError/Code/invalidFieldName`` for bad names.
    func find(_ query: FindQuery) throws -> [StoredObject]

    /// Like ``find(_:)``, but each object's fields stay the JSON text the store holds.
    /// - Throws: ``StoreError``.
    func findDocuments(_ query: FindQuery) throws -> [StoredDocument]

    /// How many objects match the query's condition (order, limit and skip do not apply).
    /// - Throws: ``StoreError``, as ``find(_:)``.
    func count(_ query: FindQuery) throws -> Int

    /// The rows of the query's ``FindQuery/aggregation``: group-by fields (dates by day, `YYYY-MM-DD`),
    /// `_count`, and `_sum…`/`_avg…`/`_max…`/`_min…` named by ``Aggregation/resultName(_:_:)``, filtered
    /// by `having` and sorted by `order` (result names match case-insensitively), then skip and limit.
    ///
    /// Returns `[]` for a class that does not exist.
    /// - Throws: ``StoreError``: ``StoreError/Code/invalidQuery`` when there is no aggregation or it names
    ///   an unknown result; otherwise as ``find(_:)``.
    func aggregate(_ query: FindQuery) throws -> [[String: JSONValue]]

    /// The indexes declared on the class (field paths and uniqueness), in declaration order.
    /// - Throws: ``StoreError``.
    func indexes(className: String) throws -> [StoredIndex]

    /// The objects the relation `key` of an object holds, ordered by objectId.
    /// - Throws: ``StoreError`` for bad names.
    func relationTargets(className: String, objectId: String, key: String) throws -> [PointerValue]

    /// The changes (`create`, `update`, `delete` entries) `query` selects, newest first. Entries pruned by the
    /// app's retention are gone.
    /// - Throws: ``StoreError``.
    func history(_ query: JournalQuery) throws -> [JournalEntry]

    /// The delete entries of `className` whose object has not come back since, newest first: each entry's
    /// `before` is the object's last version.
    /// - Throws: ``StoreError``.
    func deletedObjects(className: String, skip: Int, limit: Int) throws -> [JournalEntry]

    /// The journal entry numbered `seq`, if the journal still holds it.
    /// - Throws: ``StoreError``.
    func journalEntry(seq: Int64) throws -> JournalEntry?

    /// The relation members the delete entry `deleteSeq` of an object removed with it (what restore adds back).
    /// - Throws: ``StoreError``.
    func relationsRemoved(className: String, objectId: String, deleteSeq: Int64) throws -> [JournalRelationChange]
}
