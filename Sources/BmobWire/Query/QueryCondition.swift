/// The `where` of a Bmob query as a value: what the REST `where` JSON, the native protocol's `data.where`,
/// BQL's `where` clause and the SDK's `BmobQuery` methods all become.
///
/// `WhereParser` builds it from JSON, `WhereEncoder` turns it back into JSON, and each store compiles it to
/// SQL. Field paths use dots for nested objects (`"address.city"`); `createdAt`, `updatedAt` and `objectId`
/// are the system columns.
package indirect enum QueryCondition: Sendable, Hashable {
    /// Every condition holds (`$and`, or several keys in one `where` object).
    case and([QueryCondition])
    /// At least one condition holds (`$or`).
    case or([QueryCondition])
    /// Constraints on one field, all of which must hold (`{"score": {"$gt": 1, "$lt": 5}}`).
    case field(path: String, constraints: [FieldConstraint])
    /// Objects that the relation `key` of `object` holds (`{"$relatedTo": {"object": Pointer, "key": …}}`).
    case relatedTo(object: PointerValue, key: String)
}
