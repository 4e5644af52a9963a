public import BmobWire

/// One call of a cloud function: its name, its parameters, and who called.
public struct CloudFunctionRequest: Sendable {
    /// The function's name.
    public var name: String
    /// The parameters: the request's JSON members, each value a string when the call came through the encrypted
    /// door (as Bmob's servers do) or when the REST setting says so.
    public var params: [String: JSONValue]
    /// The caller's user id, when the request carried a valid session.
    public var userId: String?
    /// Whether the request carried the master key.
    public var isMaster: Bool
    /// The app the call is for.
    public var applicationId: String
    /// The request's id, as the server's log names it.
    public var requestId: String
}
