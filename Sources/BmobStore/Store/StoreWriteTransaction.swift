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

    /// Deletes an object and returns it, with the relation rows it owns; journals `delete` with `before`.
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

    /// Drops a class: its objects, its registry entries, its indexes and its relation rows (those it owns
    /// and those pointing at its objects); journals `dropClass`.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when the class does not exist.
    func dropClass(className: String) throws

    /// Declares an expression index over the fields' canonical expressions (a Date field's `iso`, a
    /// Pointer's `objectId`, chosen by the schema recorded now), creating the class if needed. Declaring
    /// the same index again does nothing; changing only `unique` rebuilds it.
    /// - Throws: ``StoreError`` — ``StoreError/Code/duplicate`` (Bmob 401) when `unique` and objects
    ///   already share values; ``StoreError/Code/invalidFieldName`` for a bad path;
    ///   ``StoreError/Code/invalidQuery`` for an empty path list. With a unique index, inserts and updates
    ///   that repeat a value throw ``StoreError/Code/duplicate``.
    func createIndex(className: String, paths: [String], unique: Bool) throws

    /// Drops the index declared with these paths.
    /// - Throws: ``StoreError`` — ``StoreError/Code/notFound`` when there is no such index.
    func dropIndex(className: String, paths: [String]) throws

    /// Adds targets to the relation `key` of an object (targets already there stay once). The service
    /// journals the owner's `update` in the same transaction.
    /// - Throws: ``StoreError`` for bad class or field names.
    func addRelation(className: String, objectId: String, key: String, targets: [PointerValue]) throws

    /// Removes targets from the relation `key` of an object; absent targets are ignored.
    /// - Throws: ``StoreError`` for bad class or field names.
    func removeRelation(className: String, objectId: String, key: String, targets: [PointerValue]) throws

    /// Removes a field from a class: from the schema registry, from every object that has it (each change
    /// journaled as an update), and its relation rows.
    /// - Throws: ``StoreError`` (``StoreError/Code/notFound`` for an unknown class).
    func removeField(className: String, field: String) throws

    /// Sets a user's password hash (not journaled: it is a secret, not object data).
    func setCredential(userId: String, hash: String) throws

    /// Records a new session.
    func insertSession(_ session: StoredSession) throws

    /// Ends one session. Returns whether it existed.
    @discardableResult
    func deleteSession(tokenHash: String) throws -> Bool

    /// Ends a user's sessions except `tokenHash` (all of them when `nil`). Returns how many ended.
    @discardableResult
    func deleteSessions(userId: String, except tokenHash: String?) throws -> Int

    /// Removes a user's password hash and sessions (when the user is deleted).
    func deleteAccount(userId: String) throws

    /// Sets or (with `nil`) removes a class's class-level permissions.
    func setClassPermissions(className: String, permissions: JSONValue?) throws

    /// Records a new SMS code (its own `smsId` is ignored) and returns the `smsId` it was given. Not journaled.
    func insertSmsCode(_ code: StoredSmsCode) throws -> Int64

    /// Saves a code's `usedAt`, `failedAttempts` and `delivery`.
    func updateSmsCode(_ code: StoredSmsCode) throws

    /// Records an emailed link's token.
    func insertEmailToken(_ token: StoredEmailToken) throws

    /// Deletes a user's tokens for `purpose` (a link is used once). Returns how many were deleted.
    @discardableResult
    func deleteEmailTokens(userId: String, purpose: StoredEmailToken.Purpose) throws -> Int

    /// Records one rate-limited event of `kind` (a wrong password, a wrong code, a mail sent, …) for `subject`.
    func recordRateEvent(kind: String, subject: String, at time: Int64) throws

    /// Forgets the events of `kind` for `subject` (the failures of an account that logged in, say).
    func clearRateEvents(kind: String, subject: String) throws

    /// Deletes SMS codes made, email tokens expired and rate-limited events recorded before `time`.
    func pruneVerification(before time: Int64) throws
}
