import BmobWire

extension SQLConditionCompiler {
    /// Where a condition is compiled: the class whose table `data` and `objectId` refer to, its recorded
    /// fields, the nesting depth, and whether it is the main query (not a sub-query).
    struct Scope {
        var className: String
        var fields: [String: FieldSchema]
        var depth = 0
        var isMain = true

        /// The same class, one level deeper (`$and`, `$or`).
        func nested() -> Scope {
            var scope = self
            scope.depth += 1
            return scope
        }

        /// Another class's table, inside a sub-select.
        func entering(className: String, fields: [String: FieldSchema]) -> Scope {
            Scope(className: className, fields: fields, depth: depth + 1, isMain: false)
        }
    }
}
