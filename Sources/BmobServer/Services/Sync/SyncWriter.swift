import BmobStore
public import BmobWire

/// A sync mutation's database: the reads of ``SyncReader`` and writes, all in one transaction that commits when
/// the mutation returns and leaves nothing behind when it throws. Writes obey the caller's ACLs, class permissions
/// and the app's schema rules, as a client's own writes do; Bmob cloud triggers do not run for them (they run
/// for the built-in `<Class>:add/update/remove`, which go through the ordinary operations).
///
/// The transaction may be run again (a conflict on PostgreSQL): a mutation's only effects must be its calls
/// here, and what it returns must depend only on what it reads here.
public final class SyncWriter: SyncReader {
    private let writes: any StoreWriteTransaction
    private let now: Int64
    private let ids: ObjectIdGenerator
    private let security: AppSecurity

    init(
        transaction: any StoreWriteTransaction, scope: AccessScope, renderer: ObjectRenderer, now: Int64,
        ids: ObjectIdGenerator, security: AppSecurity
    ) {
        self.writes = transaction
        self.now = now
        self.ids = ids
        self.security = security
        super.init(transaction: transaction, scope: scope, renderer: renderer)
    }

    /// Creates an object of `className` from `fields` (values or Bmob operations) and answers its objectId.
    @discardableResult
    public func insert(_ className: String, _ fields: [String: JSONValue]) throws -> String {
        try Self.mapped {
            try ObjectService.validateWritable(className)
            try ClassPermissions.check(.create, className: className, scope: scope, transaction: writes)
            return try ObjectService.insert(
                className: className, body: fields, now: now, ids: ids, scope: scope, security: security,
                transaction: writes
            ).objectId
        }
    }

    /// Sets `fields` (values or Bmob operations such as `{"__op": "Increment", "amount": 1}`) on an object the
    /// caller may write.
    public func patch(_ className: String, objectId: String, _ fields: [String: JSONValue]) throws {
        try Self.mapped {
            try ObjectService.validateWritable(className)
            try ClassPermissions.check(.update, className: className, scope: scope, transaction: writes)
            _ = try ObjectService.update(
                className: className, objectId: objectId, body: fields, now: now, scope: scope, security: security,
                transaction: writes)
        }
    }

    /// Deletes an object the caller may write.
    public func delete(_ className: String, objectId: String) throws {
        try Self.mapped {
            try ObjectService.validateWritable(className)
            try ClassPermissions.check(.delete, className: className, scope: scope, transaction: writes)
            try ObjectService.checkWritable(className: className, objectId: objectId, scope: scope, transaction: writes)
            try writes.delete(className: className, objectId: objectId)
        }
    }
}
