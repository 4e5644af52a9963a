package import BmobStore
import BmobWire

/// Login lockouts: after 5 wrong passwords for one account within 15 minutes, that account's logins fail
/// with 10076 until the oldest of them is 15 minutes old; a client (IP address) that makes 50 failed logins
/// within 15 minutes is locked out the same way. A successful login, or a password reset, forgets the
/// account's failures.
///
/// Failures are kept in the app's store (`__rate_event`), not in memory, so the limits hold across restarts
/// and across server nodes that share the store. Each app counts its own: a client locked out of one app can
/// still log in to another.
///
/// ``logIn(account:password:context:)`` calls these hooks: ``checkLoginLimits(account:userId:client:now:transaction:)``
/// in its read after finding the account (before any hashing, so a locked-out guess costs no scrypt),
/// ``recordLoginFailure(account:userId:client:context:)`` before answering 101, and
/// ``clearLoginFailures(userId:transaction:)`` in the write that makes the session.
extension UserService {
    /// Wrong passwords per account.
    package static let accountFailureLimit = RateLimit(
        count: 5, windowMilliseconds: 15 * 60_000, windowName: "15 minutes")
    /// Failed logins per client address.
    package static let clientFailureLimit = RateLimit(
        count: 50, windowMilliseconds: 15 * 60_000, windowName: "15 minutes")
    /// The rate-event kind of wrong passwords for one account.
    static let accountFailureKind = "login"
    /// The rate-event kind of failed logins from one client.
    static let clientFailureKind = "loginClient"

    /// Throws while the account or the client is locked out. Call it in the login's read, after the account
    /// lookup.
    ///
    /// - Parameters:
    ///   - account: the username, email or phone number as typed.
    ///   - userId: the user it names, when there is one (failures are counted per user then, whichever
    ///     identifier was typed).
    ///   - client: the client's IP address, when known.
    ///   - now: the login's time.
    /// - Throws: ``BmobAPIError`` 10076 with the time left.
    package static func checkLoginLimits(
        account: String, userId: String?, client: String?, now: Int64, transaction: any StoreReadTransaction
    ) throws {
        let checks: [(String, String?, RateLimit, String)] = [
            (accountFailureKind, accountSubject(account: account, userId: userId), accountFailureLimit, "this account"),
            (clientFailureKind, client.map { "client:\($0)" }, clientFailureLimit, "this client"),
        ]
        for (kind, subject, limit, who) in checks {
            guard let subject else { continue }
            let failures = try transaction.rateEvents(
                kind: kind, subject: subject, since: now - limit.windowMilliseconds)
            if let wait = limit.wait(events: failures, now: now) {
                throw BmobAPIError(
                    .tooManyFailedAttempts,
                    "too many failed logins for \(who): at most \(limit.count) in \(limit.windowName); "
                        + "try again in \(RateLimit.describe(milliseconds: wait))")
            }
        }
    }

    /// Records a failed login (wrong password or unknown account) for the account and the client.
    ///
    /// - Throws: store errors as ``BmobAPIError``.
    package func recordLoginFailure(account: String, userId: String?, client: String?, context: AppContext) async throws
    {
        let now = clock.nowMilliseconds()
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.callerDescription) { transaction in
                try transaction.pruneVerification(before: now - SmsCodes.retentionMilliseconds)
                try transaction.recordRateEvent(
                    kind: Self.accountFailureKind, subject: Self.accountSubject(account: account, userId: userId),
                    at: now)
                if let client {
                    try transaction.recordRateEvent(kind: Self.clientFailureKind, subject: "client:\(client)", at: now)
                }
            }
        }
    }

    /// Forgets a user's failed logins (after a successful login or a password reset). Call it in a write.
    package static func clearLoginFailures(userId: String, transaction: any StoreWriteTransaction) throws {
        try transaction.clearRateEvents(kind: accountFailureKind, subject: accountSubject(account: "", userId: userId))
    }

    /// Failures count per user when the account exists, else per typed account.
    private static func accountSubject(account: String, userId: String?) -> String {
        userId.map { "user:\($0)" } ?? "account:\(account)"
    }
}
