package import BmobWire

/// What a write can do: every change appends its journal row in the same transaction.
///
/// Valid only inside the closure given to ``Store/write(caller:_:)``.
package protocol StoreWriteTransaction: StoreReadTransaction {
    /// Inserts a new object, creating its class on first write; journals `create` with `after`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/duplicate`` when the objectId exists in the class.
    func insert(_ object: StoredObject) throws

    /// Replaces the object with the same class and objectId; journals `update` with `before` and `after`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when there is no such object.
    func update(_ object: StoredObject) throws

    /// Deletes an object and returns it; journals `delete` with `before`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when there is no such object.
    @discardableResult
    func delete(className: String, objectId: String) throws -> StoredObject

    /// Records field types in the schema registry, creating the class on first write.
    ///
    /// New fields are added; a field already recorded with the same schema is left alone.
    /// - Throws: ``StoreError`` — ``StoreError/Code/typeMismatch`` with Bmob's message
    ///   `invalid type for key '<key>', expected '<recorded>', but got '<new>'` when a field was recorded
    ///   with another type; ``StoreError/Code/invalidFieldName`` for a bad field name.
    func recordFields(className: String, fields: [String: FieldSchema]) throws

    /// Drops a class: its objects and its registry entries; journals `dropClass`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when the class does not exist.
    func dropClass(className: String) throws
}
