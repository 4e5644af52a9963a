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

    /// The objects matching the query's condition, in its order (by distance for a `$nearSphere` without
    /// an order), after `skip`, at most `limit`. Whole objects: `keys` and `include` are the caller's.
    ///
    /// Returns `[]` for a class that does not exist.
    /// - Throws: ``StoreError``: ``StoreError/Code/invalidQuery`` (Bmob 102) for an invalid `$regex`, date or
    ///   operator, or an aggregate name in `order`; ``StoreError/Code/invalidClassName`` and
    ///   ``StoreError/Code/invalidFieldName`` for bad names.
    func find(_ query: FindQuery) throws -> [StoredObject]

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

    /// The field paths of each index declared on the class, in declaration order.
    /// - Throws: ``StoreError``.
    func indexes(className: String) throws -> [[String]]

    /// The objects the relation `key` of an object holds, ordered by objectId.
    /// - Throws: ``StoreError`` for bad names.
    func relationTargets(className: String, objectId: String, key: String) throws -> [PointerValue]

    /// Like ``find(_:)``, but each object's fields stay the JSON text the store holds.
    /// - Throws: ``StoreError``.
    func findDocuments(_ query: FindQuery) throws -> [StoredDocument]

    /// The stored password hash of a `_User`, if it has one.
    func credential(userId: String) throws -> String?

    /// The session whose token hashes to `tokenHash`, expired or not.
    func session(tokenHash: String) throws -> StoredSession?

    /// A user's sessions, oldest first.
    func sessions(userId: String) throws -> [StoredSession]

    /// The class-level permissions of a class (`{"get":{…},"find":{…},…}`), or `nil` when it has none.
    func classPermissions(className: String) throws -> JSONValue?

    /// The SMS code with this `smsId`, used or not.
    func smsCode(smsId: Int64) throws -> StoredSmsCode?

    /// The SMS codes sent to `phone` at or after `since` (milliseconds since 1970), newest first.
    func smsCodes(phone: String, since: Int64) throws -> [StoredSmsCode]

    /// The codes with these digits, for any phone number, that are unused and unexpired at `now`, newest first.
    func activeSmsCodes(code: String, now: Int64) throws -> [StoredSmsCode]

    /// The emailed-link token whose secret hashes to `tokenHash`, expired or not.
    func emailToken(tokenHash: String) throws -> StoredEmailToken?

    /// When the rate-limited events of `kind` (a wrong password, a wrong code, a mail sent, …) for `subject`
    /// happened, at or after `since`, oldest first.
    func rateEvents(kind: String, subject: String, since: Int64) throws -> [Int64]
}
