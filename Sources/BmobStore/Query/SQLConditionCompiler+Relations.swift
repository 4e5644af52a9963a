import BmobWire

extension SQLConditionCompiler {
    /// An operator on a Relation field: membership in `__relation`. `{"likes": Pointer}` and `$in` mean
    /// "the relation holds it", `$ne` and `$nin` the opposite, `$all` every one of them, `$inQuery` "holds an
    /// object the sub-query finds".
    mutating func relation(_ constraint: FieldConstraint, key: SQLFieldPath, _ scope: Scope) throws -> SQLFragment {
        guard key.components.count == 1 else { throw StoreError.invalidQuery("a relation is a top-level field") }
        switch constraint {
        case .equalTo(let value):
            return try holds(key, scope, try targets([value]))
        case .containedIn(let values):
            return try holds(key, scope, try targets(values))
        case .notEqualTo(let value):
            return .not(try holds(key, scope, try targets([value])))
        case .notContainedIn(let values):
            return .not(try holds(key, scope, try targets(values)))
        case .containsAll(let values):
            guard !values.isEmpty else { return .alwaysFalse }
            return .all(try values.map { try holds(key, scope, try targets([$0])) })
        case .exists(let exists):
            return SQLFragment("\(dialect.fieldType(key)) \(exists ? "IS NOT NULL" : "IS NULL")")
        case .matchesQuery(let query):
            guard let select = try subSelect(query, key: nil, scope) else { return .alwaysFalse }
            return try holds(key, scope, Self.isIn("targetObjectId", select).and(targetClass: query.className))
        case .doesNotMatchQuery(let query):
            guard let select = try subSelect(query, key: nil, scope) else { return .alwaysTrue }
            return .not(
                try holds(key, scope, Self.isIn("targetObjectId", select).and(targetClass: query.className)))
        default:
            throw StoreError.invalidQuery("this operator does not apply to a Relation field")
        }
    }

    /// `$relatedTo`: the objects that `object`'s relation `key` holds. With ``readers`` the owner itself must
    /// exist and be readable by them too: listing a relation reveals what its owner holds, so a private owner's
    /// relation lists nothing (as a missing owner's does).
    func relatedTo(_ object: PointerValue, key: String, _ scope: Scope) throws -> SQLFragment {
        try StoreError.validateFieldName(key)
        let ownerTable = try SQLTableName(className: object.className)
        var fragment = SQLFragment(
            """
            objectId IN (SELECT targetObjectId FROM \(SQLTableName.relation.quoted) \
            WHERE className = ? AND objectId = ? AND key = ? AND targetClassName = ?)
            """,
            [.text(object.className), .text(object.objectId), .text(key), .text(scope.className)])
        guard let readers else { return fragment }
        guard classes[object.className] != nil else { return .alwaysFalse }
        var owner = SQLFragment("EXISTS (SELECT 1 FROM \(ownerTable.quoted) WHERE objectId = ? AND ", [.text(object.objectId)])
        owner.append(dialect.readable(by: readers))
        owner.append(")")
        fragment = .all([fragment, owner])
        return fragment
    }

    /// `objectId IN (SELECT objectId FROM "__relation" WHERE className = ? AND key = ? AND <targets>)`:
    /// owners whose relation `key` holds a matching target. Inside the sub-select the bare names are
    /// `__relation`'s columns.
    private func holds(_ key: SQLFieldPath, _ scope: Scope, _ targets: SQLFragment) throws -> SQLFragment {
        if targets.isAlwaysFalse { return .alwaysFalse }
        var fragment = SQLFragment(
            "objectId IN (SELECT objectId FROM \(SQLTableName.relation.quoted) WHERE className = ? AND key = ?",
            [.text(scope.className), .text(key.field)])
        if !targets.isAlwaysTrue {
            fragment.append(" AND ")
            fragment.append(targets)
        }
        fragment.append(")")
        return fragment
    }

    /// The target test for pointer values, one `IN` per target class.
    private func targets(_ values: [JSONValue]) throws -> SQLFragment {
        var byClass: [(className: String, objectIds: [SQLValue])] = []
        for value in values {
            guard case .pointer(let pointer) = try queryValue(value) else {
                throw StoreError.invalidQuery("a Relation field is compared with Pointers")
            }
            if let index = byClass.firstIndex(where: { $0.className == pointer.className }) {
                byClass[index].objectIds.append(.text(pointer.objectId))
            } else {
                byClass.append((pointer.className, [.text(pointer.objectId)]))
            }
        }
        return .any(
            byClass.map { className, objectIds in
                SQLValueMatch.membership("targetObjectId", objectIds).and(targetClass: className)
            })
    }
}

extension SQLFragment {
    /// `(<self> AND targetClassName = ?)`, for `__relation` sub-selects.
    fileprivate func and(targetClass className: String) -> SQLFragment {
        .all([self, SQLFragment("targetClassName = ?", [.text(className)])])
    }
}
