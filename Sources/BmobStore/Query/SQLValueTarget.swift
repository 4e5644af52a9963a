/// What a comparison reads: a column, a field of `data`, or the current element of a `json_each` over an
/// array field. Every case yields SQL text made only of validated names.
enum SQLValueTarget {
    /// A system column holding text (`objectId`).
    case column(String)
    /// A field of the object's `data`.
    case field(SQLFieldPath)
    /// The `value` of the `json_each` row an array test iterates.
    case element

    /// The value itself.
    var whole: String {
        switch self {
        case .column(let name): name
        case .field(let path): SQLFieldExpression.json(path)
        case .element: "value"
        }
    }

    /// A member of an object value (`iso` of a Date, `objectId` of a Pointer).
    ///
    /// - Throws: ``StoreError/Code/invalidQuery`` for a column, which holds no objects.
    func member(_ name: String) throws(StoreError) -> String {
        switch self {
        case .column(let column): throw StoreError.invalidQuery("\(column) cannot be compared with an object")
        case .field(let path): SQLFieldExpression.json(path, member: name)
        case .element: "json_extract(value, '$.\(name)')"
        }
    }
}
