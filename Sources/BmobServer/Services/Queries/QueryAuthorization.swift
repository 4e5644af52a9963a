package import BmobStore
package import BmobWire

/// Authorizes a query as if the caller ran each of its parts directly. One rule for every front door (REST,
/// `/8/`, BQL, counts, aggregates), since they all reach ``QueryService``:
///
/// 1. The queried class's `find` permission (501 otherwise).
/// 2. Each sub-query (`$inQuery`, `$notInQuery`, `$select`, `$dontSelect`, BQL `in (select …)`, also nested in
///    other sub-queries and in Relation operators) needs its class's `find` permission: a sub-query the caller
///    could not run on its own **fails the whole query with the error that direct query gets** (501), so that
///    a closed class cannot be read one matching bit at a time.
/// 3. `$relatedTo` names its owner by id, like a get: it needs the owner class's `get` permission (501), and the
///    owner's ACL must let the caller read it, or the relation lists nothing (the store applies that check).
/// 4. Object ACLs apply inside sub-queries too: they see only objects the caller may read (the store applies
///    ``FindQuery/readers`` at every level), so a hidden object matches nothing.
/// 5. On `_User`, fields the caller may not see (``UserPrivacy``) may not be queried either: not in `where`,
///    a sub-query's `where` or `$select` key, `order`, or statistics (501).
///
/// The master key skips all of it.
package enum QueryAuthorization {
    /// Checks `query` for `scope`.
    ///
    /// - Throws: ``BmobAPIError`` 501 for the first part the caller may not run.
    package static func check(
        _ query: FindQuery, scope: AccessScope, privacy: UserPrivacy, transaction: any StoreReadTransaction
    ) throws {
        guard case .grantees = scope else { return }
        try ClassPermissions.check(.find, className: query.className, scope: scope, transaction: transaction)
        if query.className == UserService.className {
            for key in query.order { try checkField(key.path, privacy) }
            if let aggregation = query.aggregation {
                let fields = aggregation.groupBy + aggregation.sum + aggregation.average + aggregation.max + aggregation.min
                for field in fields { try checkField(field, privacy) }
            }
        }
        var checker = Checker(scope: scope, privacy: privacy, transaction: transaction)
        if let condition = query.condition { try checker.check(condition, className: query.className) }
    }

    /// Walks a condition; remembers the classes already checked, so a query that repeats a sub-query does not
    /// read the same permissions again.
    private struct Checker {
        let scope: AccessScope
        let privacy: UserPrivacy
        let transaction: any StoreReadTransaction
        var checked: Set<String> = []

        init(scope: AccessScope, privacy: UserPrivacy, transaction: any StoreReadTransaction) {
            self.scope = scope
            self.privacy = privacy
            self.transaction = transaction
        }

        mutating func check(_ condition: QueryCondition, className: String) throws {
            switch condition {
            case .and(let parts), .or(let parts):
                for part in parts { try check(part, className: className) }
            case .field(let path, let constraints):
                if className == UserService.className { try checkField(path, privacy) }
                for constraint in constraints {
                    switch constraint {
                    case .matchesQuery(let query), .doesNotMatchQuery(let query):
                        try check(query, key: nil)
                    case .matchesKeyInQuery(let key, let query), .doesNotMatchKeyInQuery(let key, let query):
                        try check(query, key: key)
                    default:
                        continue
                    }
                }
            case .relatedTo(let object, _):
                try permit(.get, object.className)
            }
        }

        private mutating func check(_ query: SubQuery, key: String?) throws {
            try permit(.find, query.className)
            if query.className == UserService.className, let key { try checkField(key, privacy) }
            if let condition = query.condition { try check(condition, className: query.className) }
        }

        private mutating func permit(_ operation: ClassOperation, _ className: String) throws {
            guard checked.insert("\(operation.rawValue) \(className)").inserted else { return }
            try ClassPermissions.check(operation, className: className, scope: scope, transaction: transaction)
        }
    }

    /// 501 when `path` starts with a `_User` field the viewer may not see.
    private static func checkField(_ path: String, _ privacy: UserPrivacy) throws(BmobAPIError) {
        let field = path.split(separator: ".", maxSplits: 1).first.map(String.init) ?? path
        guard privacy.mayQuery(field) else {
            throw BmobAPIError(.forbidden, "the field \(field) of _User can be queried only with the master key")
        }
    }
}
