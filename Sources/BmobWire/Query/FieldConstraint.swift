/// One operator applied to a field in a `where`.
package enum FieldConstraint: Sendable, Hashable {
    /// Equal; for an array field, the array contains the value. (`{"a": v}` or `{"a": {"$eq": v}}`.)
    case equalTo(JSONValue)
    /// `$ne`.
    case notEqualTo(JSONValue)
    /// `$lt`.
    case lessThan(JSONValue)
    /// `$lte`.
    case lessThanOrEqualTo(JSONValue)
    /// `$gt`.
    case greaterThan(JSONValue)
    /// `$gte`.
    case greaterThanOrEqualTo(JSONValue)
    /// `$in`: the field (or, for arrays, one of its elements) is one of the values.
    case containedIn([JSONValue])
    /// `$nin`.
    case notContainedIn([JSONValue])
    /// `$all`: the array field contains every value.
    case containsAll([JSONValue])
    /// `$exists`.
    case exists(Bool)
    /// `$regex` with optional `$options` (`i`, `m`, `s`, `x`). Matched by a linear-time engine.
    case matchesRegex(pattern: String, options: String)
    /// `$select`: the field equals the `key` of some object the sub-query finds.
    case matchesKeyInQuery(key: String, query: SubQuery)
    /// `$dontSelect`.
    case doesNotMatchKeyInQuery(key: String, query: SubQuery)
    /// `$inQuery`: the pointer field points to an object the sub-query finds.
    case matchesQuery(SubQuery)
    /// `$notInQuery`.
    case doesNotMatchQuery(SubQuery)
    /// `$nearSphere` (results ordered by distance) with `$maxDistanceIn…`, kept in radians; `nil` means
    /// Bmob's default of 100 km.
    case nearSphere(GeoPointValue, maxDistanceRadians: Double?)
    /// `$within: {$box: [southwest, northeast]}`.
    case withinBox(southwest: GeoPointValue, northeast: GeoPointValue)
}
