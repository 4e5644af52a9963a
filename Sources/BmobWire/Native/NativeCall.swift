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
    /// `request_sms_code`: a code for `mobilePhoneNumber`, with an optional `template` (in `data`, or at the top
    /// level as the vendor Swift SDK sends them).
    case requestSmsCode(mobilePhoneNumber: String?, template: String?)
    /// `verify_sms_code`: checks and uses up `smsCode` for `mobilePhoneNumber` (in `data` or at the top level).
    case verifySmsCode(mobilePhoneNumber: String?, smsCode: String?)
    /// `query_sms`: the delivery state of the code `smsId` (a number, or digits in a string).
    case querySms(smsId: Int64)
    /// `login_or_signup`, and `login` / `signup` whose `data` has an `smsCode`: the user with that phone number,
    /// made when `allowSignUp` and there is none; `fields` is the rest of `data`.
    case logInWithSmsCode(mobilePhoneNumber: String?, smsCode: String?, fields: [String: JSONValue], allowSignUp: Bool)
    /// `phone_reset`, and `reset` without `data.email`: a new `password` for the user of `smsCode` (the phone
    /// number is optional: a code in use names one).
    case resetPasswordBySmsCode(smsCode: String?, password: String?, mobilePhoneNumber: String?)
    /// `reset` with `data.email`: mails a password-reset link.
    case requestPasswordReset(email: String?)
    /// `email_verify`: mails an email-verification link to `data.email`.
    case requestEmailVerify(email: String?)
    /// `cdn`: the upload threshold, and for a large file the multipart upload's plan (`data.filename`,
    /// `data.size`, `data.resume`).
    case planUpload(filename: String, size: Int64, resume: String?)
    /// `files`: a small file sent whole (`data.filename`, `data.mimeType`, `data.content` in base64).
    case uploadFile(filename: String, mimeType: String?, content: [UInt8])
    /// `savecdnupload`: records a finished multipart upload (`data.filename`, `data.filesize`, and the upload's
    /// `data.sessionToken`).
    case registerUpload(filename: String, size: Int64, uploadToken: String)
    /// `delcdnupload`: deletes one file (`data.filename` or `data.url`: its key, URL path or URL).
    case deleteFile(reference: String)
    /// `functions`: runs the cloud function `data._e` with the rest of `data` as its parameters.
    case callFunction(name: String, params: [String: JSONValue])
    /// `delcdnbatch`: deletes files (`data` maps cdn names to lists of keys or URLs).
    case deleteFiles(references: [String])
    /// `history`: the changes of `c` (of its object `objectId` when given), filtered by `data`
    /// (`since`, `until`, `user`, `op`, `limit`, `skip`; checked by the history service).
    case history(className: String, objectId: String?, filter: JSONValue)
    /// `deleted`: the deleted objects of `c`, paged by `data` (`limit`, `skip`).
    case deleted(className: String, filter: JSONValue)
    /// `revert`: makes the object what it was before change `data.seq`, if it is still the version of
    /// `data.ifUpdatedAt` (milliseconds) when given.
    case revert(className: String, objectId: String, seq: Int64, ifUpdatedAt: Int64?)
    /// `restore`: brings the deleted object back.
    case restore(className: String, objectId: String)
    /// `server_info`: the server's capabilities and limits.
    case serverInfo
}
