/// What an expression the compiler compares holds, where engines type it differently
/// (``SQLDialect/keyOperand(_:kind:otherKind:)``).
package enum SQLOperandKind: Sendable, Equatable {
    /// A field's or an array element's value, as the dialect reads it (``SQLDialect/field(_:member:)``).
    case value
    /// Text: the `objectId` column, a Date's `iso`, a Pointer's `objectId`.
    case text
    /// The `createdAt` and `updatedAt` columns, milliseconds since 1970.
    case milliseconds
}
