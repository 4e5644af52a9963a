package import BmobWire

/// One call of a cloud function: its name, its parameters, and who called.
package struct CloudFunctionRequest: Sendable {
    /// The function's name.
    package var name: String
    /// The parameters: the request's JSON members, each value a string when the call came through the encrypted
    /// door (as Bmob's servers do) or when the REST setting says so.
    package var params: [String: JSONValue]
    /// The caller's user id, when the request carried a valid session.
    package var userId: String?
    /// Whether the request carried the master key.
    package var isMaster: Bool
    /// The app the call is for.
    package var applicationId: String
    /// The request's id, as the server's log names it.
    package var requestId: String
}
