/// Why a `where`, a find query's parameters or a BQL statement was rejected.
///
/// ``code`` is the Bmob code to answer with: ``BmobErrorCode/invalidQuery`` (102) for `where` and
/// query-parameter problems, ``BmobErrorCode/whereTooLarge`` (402) for a `where` over its size limits,
/// ``BmobErrorCode/invalidGeoPoint`` (117) for coordinates out of range in a `where`,
/// ``BmobErrorCode/invalidClassName`` (103) for a bad class name, and ``BmobErrorCode/invalidBQL`` (601) for
/// every BQL problem.
///
/// Messages name operators, field paths and what was expected, never the values a client sent, so
/// ``description`` is safe to log and to send back as the `error` text.
package struct QueryParseError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The Bmob code for the response.
    package var code: BmobErrorCode
    /// What was wrong and what was expected, without the position.
    package var message: String
    /// Byte offset into the text that was parsed (the JSON text or the BQL statement), when known.
    package var offset: Int?

    /// Creates an error with a code, a message and an optional byte offset.
    package init(code: BmobErrorCode, message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// A 102 error: an invalid `where` or query parameter.
    package static func invalidQuery(_ message: String, offset: Int? = nil) -> Self {
        Self(code: .invalidQuery, message: message, offset: offset)
    }

    /// A 402 error: a `where` (or `having`) over one of its size limits.
    package static func whereTooLarge(_ message: String) -> Self {
        Self(code: .whereTooLarge, message: message)
    }

    /// A 601 error: an invalid BQL statement, at `offset` bytes into it.
    package static func invalidBQL(_ message: String, offset: Int) -> Self {
        Self(code: .invalidBQL, message: message, offset: offset)
    }

    /// The message followed by the position, `"expected 'from' at byte 9"`: the text to answer with.
    package var description: String {
        if let offset { "\(message) at byte \(offset)" } else { message }
    }

    /// The code and the description.
    package var debugDescription: String {
        "QueryParseError(\(code.rawValue)): \(description)"
    }

    /// `text` in single quotes for a message, cut to 64 characters and with control characters replaced, so
    /// that a hostile name cannot forge log lines.
    package static func quoted(_ text: some StringProtocol) -> String {
        var result = "'"
        for (index, character) in text.enumerated() {
            if index == 64 {
                result += "…"
                break
            }
            let isControl = character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            result.append(isControl ? "?" : character)
        }
        return result + "'"
    }
}
