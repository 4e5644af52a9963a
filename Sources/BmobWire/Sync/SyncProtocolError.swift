/// Why a sync message, function path or state version was refused (`sync.md` §1).
///
/// Messages say what was wrong and what was expected, never a token or payload the peer sent, so ``message`` is
/// safe to log and to send back (a server answers a malformed client message with `FatalError` and closes).
package struct SyncProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    package enum Kind: Sendable, Hashable {
        /// A message is larger than the limit it was decoded with.
        case messageTooLarge
        /// A message is not UTF-8 JSON, or its JSON does not parse (nesting too deep included).
        case invalidJSON
        /// A message is not an object with a string `type`, or its `type` is not one this side accepts.
        case unknownType
        /// A required member is missing or has the wrong type, or a number is out of range.
        case invalidMember
        /// A function path is empty, too long, or not `module:export` of the allowed characters.
        case invalidFunctionPath
        /// A message holds more items than the limit allows (query modifications, log lines).
        case tooManyItems
    }

    /// The kind of problem.
    package var kind: Kind
    /// What was wrong, without the peer's data.
    package var message: String

    /// An error of `kind`.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
