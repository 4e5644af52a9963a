/// Which ``StoreError/Code`` a SQLSTATE becomes: what callers can act on, with a message safe to show or log.
enum PostgresErrorMapping {
    /// The error for a failed statement with `state`; `constraint` names the violated constraint, if any.
    static func error(for state: PostgresState, constraint: String?) -> StoreError {
        switch state {
        case .uniqueViolation:
            // Class tables name their key `<class>_pkey`; declared indexes start with `__index`.
            if let constraint, constraint.hasSuffix("_pkey") {
                return StoreError(.objectIdTaken, "an object with this objectId already exists", fileID: nil, line: nil)
            }
            return StoreError(.duplicate, "unique index cannot has duplicate value", fileID: nil, line: nil)
        case .serializationFailure, .deadlockDetected:
            return StoreError(.busy, "concurrent writes conflicted; try again", fileID: nil, line: nil)
        case .queryCanceled:
            return StoreError.invalidQuery(
                "the query needs too much work (it ran past the time limit); narrow it with a more selective where "
                    + "(an indexed field, fewer $or branches, a simpler $regex) or a smaller limit")
        case .invalidRegularExpression:
            return StoreError.invalidQuery("invalid $regex: the pattern is too complex for the database")
        case .untranslatableCharacter, .characterNotInRepertoire:
            return StoreError(
                .unsupportedValue, "text containing the character U+0000 cannot be stored in PostgreSQL",
                fileID: nil, line: nil)
        case .numericValueOutOfRange:
            return StoreError.invalidQuery("a number in the query is out of range")
        case .undefinedTable:
            return StoreError(.notFound, "class not found")
        default:
            break
        }
        switch state.errorClass {
        case "08", "57":
            // Connection exceptions, and operator intervention (shutdown, crash recovery, cannot connect now).
            return StoreError(.unavailable, "the database is unavailable")
        case "53":
            return state.rawValue == "53100"
                ? StoreError(.full, "the database disk is full")
                : StoreError(.unavailable, "the database is out of resources")
        case "54":
            return StoreError.invalidQuery("the query is too large for the database")
        case "25":
            return StoreError(.internal, "database transaction error")
        case "XX":
            return StoreError(.corrupt, "database error")
        case "40":
            return StoreError(.busy, "the transaction was rolled back; try again")
        default:
            return StoreError(.internal, "database error")
        }
    }
}
