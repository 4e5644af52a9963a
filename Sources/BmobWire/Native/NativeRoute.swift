/// The `/8/<route>` names this server answers (after the `/8/secret` handshake, which has its own handler).
///
/// The Objective-C and Android SDKs know more routes (SMS, files, push, payments); those are answered
/// with an error until a service implements them.
package enum NativeRoute: String, Sendable, CaseIterable {
    case initialize = "init"
    case create
    case update
    case delete
    case find
    case batch
    case cloudQuery = "cloud_query"
    case timestamp
    case schemas
    case signUp = "signup"
    case logIn = "login"
    case checkSession = "check_session"
    case logOut = "logout"
    case updateUserPassword = "update_user_password"
    case requestSmsCode = "request_sms_code"
    case verifySmsCode = "verify_sms_code"
    case querySms = "query_sms"
    case logInOrSignUp = "login_or_signup"
    case reset
    case phoneReset = "phone_reset"
    case emailVerify = "email_verify"
    case cdn
    case files
    case saveCdnUpload = "savecdnupload"
    case deleteCdnUpload = "delcdnupload"
    case deleteCdnBatch = "delcdnbatch"
    case functions
    /// One object's changes (with `objectId`) or a class's.
    case history
    /// A class's deleted objects.
    case deleted
    /// Makes an object what it was before a change.
    case revert
    /// Brings a deleted object back.
    case restore
    /// What the server offers.
    case serverInfo = "server_info"
}
