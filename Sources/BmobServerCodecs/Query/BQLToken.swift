package import BmobWire

/// One token of a BQL statement, with its byte offset for error messages.
package struct BQLToken: Sendable, Hashable {
    /// What the token is.
    package enum Kind: Sendable, Hashable {
        /// A bare word: a keyword, a function name, or a class or field name (`select`, `_User`, `score`).
        case word(String)
        /// A name in backticks, never a keyword (`` `order` ``).
        case quotedIdentifier(String)
        /// A single- or double-quoted string, escapes resolved.
        case string(String)
        /// A number literal: `.int` when it is an integer that fits, `.double` otherwise.
        case number(JSONValue)
        /// Punctuation or an operator: `( ) [ ] { } , . * : ; + - = == != <> < <= > >=`.
        case symbol(String)
        /// `?`, filled from the statement's values in order.
        case placeholder
        /// The end of the statement.
        case end
    }

    /// What the token is, with its text or value.
    package var kind: Kind
    /// Byte offset of the token's first character in the statement.
    package var offset: Int

    /// Creates a token of `kind` starting `offset` bytes into the statement.
    package init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// How an error message names this token; literal values are described, never quoted, so that messages
    /// stay safe to log.
    package var summary: String {
        switch kind {
        case .word(let word): QueryParseError.quoted(word)
        case .quotedIdentifier(let name): "`\(QueryParseError.quoted(name).dropFirst().dropLast())`"
        case .string: "a string"
        case .number: "a number"
        case .symbol(let symbol): "'\(symbol)'"
        case .placeholder: "'?'"
        case .end: "the end of the statement"
        }
    }
}
