/// What a comparison reads: a column, a field of `data`, or the element an array test iterates. Every case
/// yields SQL text made only of validated names and the dialect's own SQL.
enum SQLValueTarget {
    /// A system column holding text (`objectId`).
    case column(String)
    /// A field of the object's `data`.
    case field(SQLFieldPath)
    /// The element of an array field that ``SQLDialect/someElement(of:where:)`` tests.
    case element

    /// The value itself.
    func whole(_ dialect: some SQLDialect) -> String {
        switch self {
        case .column(let name): name
        case .field(let path): dialect.field(path, member: nil)
        case .element: dialect.elementValue
        }
    }

    /// A member of an object value (`iso` of a Date, `objectId` of a Pointer).
    ///
    /// - Throws: ``StoreError/Code/invalidQuery`` for a column, which holds no objects.
    func member(_ name: String, _ dialect: some SQLDialect) throws(StoreError) -> String {
        switch self {
        case .column(let column): throw StoreError.invalidQuery("\(column) cannot be compared with an object")
        case .field(let path): dialect.field(path, member: name)
        case .element: dialect.elementMember(name)
        }
    }
}
