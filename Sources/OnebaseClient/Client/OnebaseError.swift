public import Foundation

/// Why a call failed: the server function threw (``message`` and its application payload in ``data``), the
/// server refused a sign-in, or the connection was lost while the call was in flight.
///
/// ``description`` is the message only, safe to log.
public struct OnebaseError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What went wrong, in a few words.
    public var message: String
    /// The function's error payload (a `ConvexError`-style value), or the HTTP error body's members
    /// (`{"code": …}`) for sign-in failures; `nil` when there is none.
    public var data: OnebaseValue?

    /// An error.
    ///
    /// - Parameters:
    ///   - message: what went wrong.
    ///   - data: the error payload, if any.
    public init(message: String, data: OnebaseValue? = nil) {
        self.message = message
        self.data = data
    }

    /// The message.
    public var description: String { message }

    /// The message.
    public var errorDescription: String? { message }

    /// A call that could not go out because the socket is not open (actions fail fast).
    static let notConnected = OnebaseError(message: "not connected")
    /// A call whose socket closed before its answer arrived; it may or may not have run.
    static let connectionLost = OnebaseError(message: "connection lost while the call was in flight")
}
