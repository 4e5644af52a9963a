/// A decoded native `/8/` call: the operation and its arguments, ready for a service. Produced by
/// ``NativeRequest/decode(route:members:)``.
package enum NativeCall: Sendable, Equatable {
    /// `init`: the server's hosts and clock.
    case initialize
    /// `create`: a new object from `data`.
    case create(className: String, fields: [String: JSONValue])
    /// `update`: values and operators from `data` applied to one object.
    case update(className: String, objectId: String, body: [String: JSONValue])
    /// `delete`: one object.
    case delete(className: String, objectId: String)
    /// `find` with an `objectId`: one object, with `include` and `keys` read from `data` when given.
    case get(className: String, objectId: String, include: [String], keys: [String]?)
    /// `find` without an `objectId`: a query, count or statistics query.
    case find(FindQuery)
    /// `batch`: elements in either shape (see ``BatchItem``).
    case batch([BatchItem])
    /// `cloud_query`: a BQL statement and its `?` values.
    case cloudQuery(bql: String, values: [JSONValue])
    /// `timestamp`: the server time.
    case timestamp
    /// `schemas`: one class's schema, or every class's when `nil`.
    case schemas(className: String?)
    /// `signup`: a new `_User` from `data` (username, password, …).
    case signUp(fields: [String: JSONValue])
    /// `login`: `data.username` (a username, email or phone number) and `data.password`.
    case logIn(account: String, password: String)
    /// `check_session`: whether the request's session token belongs to the user `objectId`.
    case checkSession(objectId: String)
    /// `logout`: ends the request's session (of the user `data.objectId`).
    case logOut(objectId: String?)
    /// `update_user_password`: `data.oldPassword` → `data.newPassword` for the user `objectId`.
    case updatePassword(objectId: String, oldPassword: String, newPassword: String)
}
