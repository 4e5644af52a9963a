package import BmobWire

/// One thing a client asks the server to do, whichever door it came through: REST routes, the native `/8/`
/// calls and the elements of a batch all decode into an `Operation`, which ``OperationRunner`` runs. Class
/// routing (`_User`, `_Role`, `_Installation`, other classes) happens in the runner, not in the doors: a
/// `create` of `_User` is a signup whether it came from `POST /1/users`, `/8/create` or a batch element.
package enum Operation: Sendable, Equatable {
    // MARK: Objects

    /// Creates an object of any class.
    case create(className: String, body: [String: JSONValue])
    /// One object with `include` pointers expanded and only `keys` (all when `nil`).
    case get(className: String, objectId: String, include: [String], keys: [String]?)
    /// Applies values and operators to an object.
    case update(className: String, objectId: String, body: [String: JSONValue])
    /// Deletes an object.
    case delete(className: String, objectId: String)
    /// A query, count or statistics query.
    case find(FindQuery)
    /// A BQL statement with the values of its `?` placeholders.
    case cloudQuery(bql: String, values: [JSONValue])
    /// Up to 50 object operations run in order, each answered on its own.
    case batch([BatchItem])

    // MARK: Users and sessions

    /// A new user from `username`, `password` and other fields, logged in.
    case signUp(fields: [String: JSONValue])
    /// Login with a username, email or phone number and a password.
    case logIn(account: String, password: String)
    /// Third-party login: the account linked to `authData`, made with `fields` when there is none.
    case logInWithAuthData(authData: JSONValue, fields: [String: JSONValue])
    /// Login (and, with `allowSignUp`, signup) with a phone number and an SMS code.
    case logInWithSmsCode(mobilePhoneNumber: String?, smsCode: String?, fields: [String: JSONValue], allowSignUp: Bool)
    /// Ends the request's session (of `userId`, when given).
    case logOut(userId: String?)
    /// Whether the request's session token is a session of `userId`.
    case checkSession(userId: String)
    /// A new password after the old one.
    case updatePassword(userId: String, oldPassword: String, newPassword: String)
    /// A user's sessions.
    case listSessions(userId: String)
    /// Ends one of a user's sessions by its listed id.
    case revokeSession(userId: String, sessionId: String)

    // MARK: Codes and links

    /// Sends an SMS code.
    case requestSmsCode(mobilePhoneNumber: String?, template: String?)
    /// Checks and uses up an SMS code.
    case verifySmsCode(mobilePhoneNumber: String?, smsCode: String?)
    /// The delivery state of an SMS code.
    case querySms(smsId: Int64)
    /// A new password for the user whose number an SMS code was sent to.
    case resetPasswordBySmsCode(smsCode: String?, password: String?, mobilePhoneNumber: String?)
    /// Mails a password-reset link.
    case requestPasswordReset(email: String?)
    /// Mails an email-verification link.
    case requestEmailVerify(email: String?)

    // MARK: Schemas and time

    /// One class's schema, or every class's when `nil`.
    case schemas(className: String?)
    /// Creates (`create`) or changes a class's schema.
    case saveSchema(className: String, body: [String: JSONValue], create: Bool)
    /// Drops an empty class.
    case deleteSchema(className: String)
    /// The server's time.
    case timestamp

    // MARK: Files

    /// Stores a file sent whole in one request, and records it.
    case uploadFile(filename: String, mimeType: String?, bytes: [UInt8])
    /// Deletes the file a key, URL path or URL names.
    case deleteFile(reference: String)
    /// Deletes several files.
    case deleteFiles(references: [String])
    /// Runs the cloud function `name` with `params`, each value turned into a string when `paramsAsStrings`.
    case callFunction(name: String, params: [String: JSONValue], paramsAsStrings: Bool)
    /// Signed download URLs of the files `references` name, valid for `expiresIn` seconds (the default when `nil`).
    case signFileURLs(references: [String], expiresIn: Int?)
    /// The upload threshold, and for a file of `size` bytes at or above it the multipart upload's plan with
    /// short-lived credentials (for the key of the upload `resume` names, when given).
    case planUpload(filename: String, size: Int64, resume: String?)
    /// Records the file a multipart upload stored under the key its credentials (`uploadToken`) were for.
    case registerUpload(filename: String, size: Int64, uploadToken: String)

    // MARK: History

    /// One object's changes (`objectId` set) or a class's, newest first.
    case history(className: String, objectId: String?, filter: HistoryFilter)
    /// A class's deleted objects that have not come back.
    case deletedObjects(className: String, filter: HistoryFilter)
    /// Makes an object what it was before change `seq`, if it is still the version of `ifUpdatedAt` (ms) when set.
    case revert(className: String, objectId: String, seq: Int64, ifUpdatedAt: Int64?)
    /// Brings a deleted object back with its id.
    case restore(className: String, objectId: String)
    /// What the server offers and its limits, with the app's history retention.
    case serverInfo
}
