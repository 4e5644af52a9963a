import BmobWire

/// What a comparison reads: a column, a field of `data`, or the element an array test iterates. Every case
/// yields SQL text made only of validated names and the dialect's own SQL.
///
/// A column holds a plain SQL value; a field or an element holds whatever the dialect reads a JSON value as
/// (SQLite: an SQL scalar; PostgreSQL: `jsonb`), so scalars are bound, null-tested and ordered through the
/// dialect for them and directly for columns.
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

    /// The bound value a query scalar (number, string, boolean) compares as against this target.
    func bind(_ scalar: JSONValue, _ dialect: some SQLDialect) -> SQLValue {
        switch self {
        case .column: Self.plain(scalar)
        case .field, .element: dialect.value(scalar)
        }
    }

    /// A condition that the target is missing or null.
    func isNull(_ dialect: some SQLDialect) -> String {
        switch self {
        case .column(let name): "\(name) IS NULL"
        case .field, .element: dialect.isNull(whole(dialect))
        }
    }

    /// A condition that the target holds a value other than null.
    func isNotNull(_ dialect: some SQLDialect) -> String {
        switch self {
        case .column(let name): "\(name) IS NOT NULL"
        case .field, .element: dialect.isNotNull(whole(dialect))
        }
    }

    /// `target <operation> scalar` for `<`, `<=`, `>`, `>=`.
    func compare(_ operation: String, _ scalar: JSONValue, _ dialect: some SQLDialect) -> SQLFragment {
        switch self {
        case .column(let name): SQLFragment("\(name) \(operation) ?", [Self.plain(scalar)])
        case .field, .element: dialect.compare(whole(dialect), operation, scalar)
        }
    }

    /// A scalar as a plain SQL value, for a column: booleans as 1 and 0.
    static func plain(_ scalar: JSONValue) -> SQLValue {
        switch scalar {
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .int(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        default: .text(scalar.jsonString)
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
