package import BmobStore
package import BmobWire

/// What an ``Operation`` produced, typed: each door turns it into its own answer with exactly one encoder
/// (``RESTResultEncoder``, ``NativeResultEncoder``; batch elements use the REST body).
package enum OperationResult: Sendable {
    /// A new object (REST: 201, `Location`, `{"createdAt","objectId"}`).
    case created(StoredObject)
    /// A new user from a password signup (REST: 201, `{"createdAt","objectId","sessionToken"}`; native: the
    /// whole user).
    case signedUp(UserService.Login)
    /// A login: the user with its `sessionToken`. `answersCreated` makes REST answer 201 (a third-party login
    /// that made the account); phone signups answer 200 like logins, as Bmob does.
    case loggedIn(UserService.Login, answersCreated: Bool)
    /// An update (`{"updatedAt"}`).
    case updated(StoredObject)
    /// A deletion or another action with nothing to return (`{"msg":"ok"}`).
    case done
    /// One object as the caller may see it.
    case object(JSONValue)
    /// One object as the caller may see it, as JSON text (spliced from the stored fields).
    case objectJSON([UInt8])
    /// A find's JSON text, `{"results":[…]}` plus `"count"` when asked; `countOnly` for a count without rows
    /// (`limit` 0), which the native door answers as `{"count":n}`.
    case found([UInt8], countOnly: Bool)
    /// Each batch element's result or error, in order.
    case batch([Result<OperationResult, BmobAPIError>])
    /// Whether a session is valid (`{"msg":"ok"}` or `{"msg":"fail"}`).
    case sessionCheck(Bool)
    /// A user's sessions (`{"results":[…]}`).
    case sessions([JSONValue])
    /// A sent SMS code's id (`{"smsId":n}`).
    case smsSent(smsId: Int64)
    /// An answer that is a JSON document as it is (schemas, SMS state).
    case document(JSONValue)
    /// The server time: seconds since 1970 and the app's local date and time.
    case timestamp(seconds: Int64, datetime: String)
    /// A cloud function's result: REST answers `{"result": …}`, the native door `{"results": …}`.
    case functionResult(JSONValue)
}
