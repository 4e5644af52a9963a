/// A statement SQLite refused because it exceeds one of its size limits (`SQLITE_MAX_EXPR_DEPTH`,
/// `SQLITE_MAX_VARIABLE_NUMBER`, `SQLITE_MAX_COLUMN`, …): the query asked for too much, so the client gets
/// Bmob 102 with a message saying which kind of size, instead of an internal error.
///
/// The query parsers already refuse such queries with their own limits; this catches whatever still gets
/// through (a user with very many roles multiplying the ACL values of every sub-query, say). Recognised by
/// `SQLITE_TOOBIG`, or `SQLITE_ERROR` with one of SQLite's limit messages, which are fixed English texts.
enum SQLiteLimitFailure: Equatable {
    /// "Expression tree is too large", "parser stack overflow".
    case depth
    /// "too many SQL variables".
    case values
    /// Too many columns, terms, function arguments, tables or references.
    case terms
    /// `SQLITE_TOOBIG`: a string, blob or the statement itself is too long.
    case size

    /// Classifies a failure; `nil` when it is not a size limit.
    init?(code: SQLiteResultCode, message: String) {
        if code.primary == .tooBig {
            self = .size
            return
        }
        guard code.primary == .error else { return nil }
        if message.hasPrefix("Expression tree is too large") || message == "parser stack overflow" {
            self = .depth
        } else if message.hasPrefix("too many SQL variables") {
            self = .values
        } else if message.hasPrefix("too many ") || (message.hasPrefix("at most ") && message.hasSuffix(" in a join"))
            || message.hasSuffix("pattern too complex")
        {
            self = .terms
        } else {
            return nil
        }
    }

    /// What to tell the client; names no value from the query.
    var clientMessage: String {
        let advice = "narrow the query: fewer conditions, $or branches, $in values, keys, order keys or statistics fields"
        return switch self {
        case .depth: "the query is too large for the database (nested too deeply); \(advice)"
        case .values: "the query is too large for the database (too many values); \(advice)"
        case .terms: "the query is too large for the database (too many columns or terms); \(advice)"
        case .size: "the query is too large for the database (a value or the statement is too big); \(advice)"
        }
    }
}
