/// An error of the realtime connection, a channel authorization, a signin or a client event.
///
/// Errors the edge sends (`bird:error`) and the close codes that end the connection carry the Pusher protocol's
/// ``code``: 4001 unknown app key, 4009 unauthorized (a bad signin, or the member's connections terminated
/// through the API, "session ended elsewhere"), 4301 client event rejected, …. A rejected subscription (an
/// invalid signature) has no code, as in Pusher's protocol. Authorization failures carry the auth endpoint's
/// HTTP ``status`` when there was one.
///
/// ``description`` names the code and message only, never a signature or header, so it is safe to log.
public struct BirdRealtimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The protocol code (4000–4399) or close code, when there is one.
    public var code: Int?
    /// What went wrong, in a few words.
    public var message: String
    /// The HTTP status of a failed auth endpoint call, when there was one.
    public var status: Int?

    /// An error.
    ///
    /// - Parameters:
    ///   - code: the protocol or close code, if any.
    ///   - message: what went wrong.
    ///   - status: the auth endpoint's HTTP status, if any.
    public init(code: Int? = nil, message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// `4009: Connection is unauthorized`, or the message alone when there is no code.
    public var description: String {
        code.map { "\($0): \(message)" } ?? message
    }
}
