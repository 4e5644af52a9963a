import BmobWire

/// Why a pattern or its options were rejected, and where.
///
/// The message names the construct (for example "lookahead assertions are not supported") and never quotes the
/// subject text, so it is safe to log and to return to the client that sent the query.
package struct BoundedRegexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in a few words.
    package var message: String
    /// Byte offset (UTF-8) into the pattern where the offending construct starts; for an unknown option letter,
    /// the byte offset of that letter in the options string.
    package var offset: Int

    /// Creates an error with a message and the UTF-8 byte offset it refers to.
    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message and the offset, for logs and error responses.
    package var description: String { "\(message) at byte \(offset)" }
}
