package import BmobWire

/// What a write of the engine-neutral core can do. Every change appends its journal entries in the same
/// transaction (see ``JournalOperation`` for what each entry holds): objects, schema changes (a class created,
/// fields recorded or removed, permissions, indexes), relation members added and removed, and class drops with
/// everything they remove.
///
/// Valid only inside the closure given to ``Store/write(caller:_:)``.
package protocol StoreCoreWriteTransaction: StoreCoreReadTransaction {
    /// Inserts a new object, creating its class on first write; journals `create` with `after` (and `schema`
    /// when it creates the class).
    /// - Throws: ``StoreError`` — ``StoreError/Code/objectIdTaken`` when the objectId exists in the class (the
    ///   caller may retry with a fresh id); ``StoreError/Code/duplicate`` when a unique index already holds a
    ///   value; ``StoreError/Code/tooLarge`` above the store's largest document.
    func insert(_ object: StoredObject) throws

    /// Replaces the object with the same class and objectId; journals `update` with `before` and `after`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when there is no such object.
    func update(_ object: StoredObject) throws

    /// Deletes an object and returns it, with the relation members it owns; journals `removeRelation` for
    /// those members, then `delete` with `before`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when there is no such object.
    @discardableResult
    func delete(className: String, objectId: String) throws -> StoredObject

    /// Records field types in the schema registry, creating the class on first write; journals `schema` when
    /// it adds a field or creates the class.
    ///
    /// New fields are added; a field already recorded with the same schema is left alone.
    /// - Throws: ``StoreError`` — ``StoreError/Code/typeMismatch`` with Bmob's message
    ///   `invalid type for key '<key>', expected '<recorded>', but got '<new>'` when a field was recorded
    ///   with another type; ``StoreError/Code/invalidFieldName`` for a bad field name.
    func recordFields(className: String, fields: [String: FieldSchema]) throws

    /// Removes a field from a class: from every object that has it (each change journaled as an `update`), its
    /// relation members (journaled as `removeRelation`), and the schema registry (journaled as `schema`).
    /// - Throws: ``StoreError`` (``StoreError/Code/notFound`` for an unknown class).
    func removeField(className: String, field: String) throws

    /// Drops a class: its objects, its registry entries, permissions and indexes, and its relation members
    /// (those it owns and those pointing at its objects). Journals what it removes, so that history, restore and
    /// other nodes can follow: `dropClassObject` with `before` for each object, `removeRelation` for the members,
    /// then `dropClass` with the class's last schema (``StoredClassSchema``) as `before`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when the class does not exist.
    func dropClass(className: String) throws

    /// Sets or (with `nil`) removes a class's class-level permissions; journals `schema` when the class exists.
    /// - Throws: ``StoreError``.
    func setClassPermissions(className: String, permissions: JSONValue?) throws

    /// Declares an expression index over the fields' canonical expressions (a Date field's `iso`, a
    /// Pointer's `objectId`, chosen by the schema recorded now), creating the class if needed; journals `schema`.
    /// Declaring the same index again does nothing; changing only `unique` rebuilds it.
    /// - Throws: ``StoreError`` — ``StoreError/Code/duplicate`` (Bmob 401) when `unique` and objects
    ///   already share values; ``StoreError/Code/invalidFieldName`` for a bad path;
    ///   ``StoreError/Code/invalidQuery`` for an empty path list. With a unique index, inserts and updates
    ///   that repeat a value throw ``StoreError/Code/duplicate``.
    func createIndex(className: String, paths: [String], unique: Bool) throws

    /// Drops the index declared with these paths; journals `schema`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when there is no such index.
    func dropIndex(className: String, paths: [String]) throws

    /// Adds targets to the relation `key` of an object (targets already there stay once); journals
    /// `addRelation` with the targets it added. The service journals the owner's `update` itself.
    /// - Throws: ``StoreError`` for bad class or field names.
    func addRelation(className: String, objectId: String, key: String, targets: [PointerValue]) throws

    /// Removes targets from the relation `key` of an object (absent targets are ignored); journals
    /// `removeRelation` with the targets it removed.
    /// - Throws: ``StoreError`` for bad class or field names.
    func removeRelation(className: String, objectId: String, key: String, targets: [PointerValue]) throws

    /// Deletes at most `limit` journal entries that `retention` no longer keeps, and returns how many went. The
    /// journal's newest entry and entries younger than `graceCutoff` (milliseconds since 1970) stay, whatever the
    /// retention: readers that tail the journal (realtime feeds, other nodes) read them moments after their
    /// commit. Not journaled.
    /// - Throws: ``StoreError``.
    func pruneJournal(_ retention: JournalRetention, now: Int64, graceCutoff: Int64, limit: Int) throws -> Int
}
