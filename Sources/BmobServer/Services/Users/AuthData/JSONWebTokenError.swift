/// Why a JSON Web Token or JSON Web Key Set could not be read: bad base64url, JSON that is not an object,
/// a missing or mistyped member.
///
/// The message names the part at fault and never echoes the token, so it is safe to log and to answer with.
package struct JSONWebTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `"the header is not base64url"`.
    package var message: String

    /// An error saying `message`.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
