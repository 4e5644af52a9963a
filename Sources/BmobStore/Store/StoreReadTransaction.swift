package import BmobWire

/// What a read can do. Valid only inside the closure given to ``Store/read(_:)`` or ``Store/write(caller:_:)``,
/// on the thread that runs it; hence not `Sendable`.
package protocol StoreReadTransaction {
    /// The object, or `nil` when the class or the object does not exist.
    /// - Throws: ``StoreError`` (``StoreError/Code/invalidClassName`` for a bad name).
    func fetch(className: String, objectId: String) throws -> StoredObject?

    /// How many objects the class holds (0 for a class that does not exist).
    /// - Throws: ``StoreError``.
    func count(className: String) throws -> Int

    /// The classes that exist, in ascending order.
    /// - Throws: ``StoreError``.
    func classNames() throws -> [String]

    /// The fields the schema registry recorded for the class (empty for an unknown class).
    /// - Throws: ``StoreError``.
    func schema(className: String) throws -> [String: FieldSchema]

    /// The `seq` of the newest journal entry, 0 when the journal is empty.
    /// - Throws: ``StoreError``.
    func lastJournalSeq() throws -> Int64
}
