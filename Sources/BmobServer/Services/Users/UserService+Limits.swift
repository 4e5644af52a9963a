package import BmobStore
import BmobWire

/// Failed logins slow the guesser down; they never lock the owner out.
///
/// The rule (numbers from ``AccountLimits``, defaults in brackets; failures count for
/// ``AccountLimits/loginFailureWindowSeconds`` [a day]):
/// 1. **Account and address.** After ``AccountLimits/loginFreeFailures`` [5] failed logins for one account from
///    one client address, each further attempt for that account from that address must wait 1 s after the
///    latest failure, doubling per failure up to ``AccountLimits/loginMaxDelaySeconds`` [15 min]. A successful
///    login from that address forgets these failures. Failures from other addresses never slow this pair, so a
///    stranger's wrong passwords cannot keep the owner out.
/// 2. **Address.** After ``AccountLimits/loginClientFreeFailures`` [50] failed logins from one address, whatever
///    the accounts, its attempts wait the same way (password spraying from one address).
/// 3. **Account.** After ``AccountLimits/loginAccountFreeFailures`` [20] failed logins for one account, whatever
///    the addresses, attempts wait 1 s doubling up to ``AccountLimits/loginAccountMaxDelaySeconds`` [1 min]
///    (guessing from many addresses): at most about one guess a minute, and the owner, on a new address, at
///    worst waits that minute.
///
/// Rules 2 and 3 do not apply to an account and address that logged in successfully within the last day (a
/// "trusted" pair): an owner is slowed by nobody's failures but their own at their address. A refused attempt
/// answers 10076 with the time left and runs no scrypt; an unknown account is counted by the name typed and
/// answered exactly as a known one. A password reset starts the account's count afresh (failures up to the
/// reset's time no longer count for rules 1 and 3).
///
/// Failures are kept in the app's store (`__rate_event`), not in memory, so the rule holds across restarts
/// and across server nodes that share the store; each app counts its own.
///
/// ``logIn(account:password:context:)`` checks ``checkLoginLimits(account:userIds:client:now:transaction:)`` in
/// its read before any hashing, and again in the write that reveals the outcome (so that a burst of parallel
/// guesses that all passed the first check learns nothing beyond the allowance); that write calls
/// ``recordLoginFailure(account:userIds:client:now:transaction:)`` or
/// ``recordLoginSuccess(userId:client:now:transaction:)``.
extension UserService {
    /// The rate-event kind of failed logins per account and address.
    static let pairFailureKind = "loginPair"
    /// The rate-event kind of failed logins per account.
    static let accountFailureKind = "login"
    /// The rate-event kind of failed logins per client address.
    static let clientFailureKind = "loginClient"
    /// The rate-event kind marking an account and address that logged in (one event per pair, the latest).
    static let trustedKind = "loginTrusted"
    /// The rate-event kind marking a user's latest password reset.
    static let resetKind = "loginReset"

    /// Throws while a login must wait. Call it in the login's read, after finding the accounts, before hashing.
    ///
    /// - Parameters:
    ///   - account: the username, email or phone number as typed (counted by itself when it names no user).
    ///   - userIds: the users it names (one, or several on legacy data with colliding identities); failures
    ///     count per user then, whichever identifier was typed.
    ///   - client: the client's IP address, when known.
    ///   - now: the attempt's time.
    /// - Throws: ``BmobAPIError`` 10076 with the time left.
    package func checkLoginLimits(
        account: String, userIds: [String], client: String?, now: Int64, transaction: any StoreReadTransaction
    ) throws {
        if let refusal = try loginRefusal(account: account, userIds: userIds, client: client, now: now, transaction: transaction) {
            throw refusal
        }
    }

    /// The 10076 a login must be answered with now, or `nil` when it may go on.
    func loginRefusal(
        account: String, userIds: [String], client: String?, now: Int64, transaction: any StoreReadTransaction
    ) throws -> BmobAPIError? {
        let since = now - limits.loginFailureWindowMilliseconds
        var longest: (wait: Int64, who: String)?
        func consider(_ wait: Int64?, _ who: String) {
            guard let wait, wait > longest?.wait ?? 0 else { return }
            longest = (wait, who)
        }
        var clientFailures: [Int64]?
        for (subject, userId) in Self.accountSubjects(account: account, userIds: userIds) {
            let reset = try userId.flatMap { try Self.latestEvent(Self.resetKind, "user:\($0)", since: since, transaction) }
            func failures(_ kind: String, _ subject: String) throws -> [Int64] {
                try transaction.rateEvents(kind: kind, subject: subject, since: since).filter { $0 > reset ?? Int64.min }
            }
            let pair = Self.pairSubject(subject, client)
            consider(
                limits.loginPairBackoff.wait(failures: try failures(Self.pairFailureKind, pair), now: now),
                "for this account from this client address")
            if userId != nil, client != nil,
                try Self.latestEvent(Self.trustedKind, pair, since: now - SmsCodes.retentionMilliseconds, transaction) != nil
            {
                continue  // A trusted pair: rules 2 and 3 do not apply.
            }
            if let client {
                if clientFailures == nil {
                    clientFailures = try transaction.rateEvents(kind: Self.clientFailureKind, subject: "client:\(client)", since: since)
                }
                consider(limits.loginClientBackoff.wait(failures: clientFailures ?? [], now: now), "from this client address")
            }
            consider(
                limits.loginAccountBackoff.wait(failures: try failures(Self.accountFailureKind, subject), now: now),
                "for this account")
        }
        return longest.map {
            BmobAPIError(
                .tooManyFailedAttempts,
                "too many failed logins \($0.who); try again in \(RateLimit.describe(milliseconds: $0.wait))")
        }
    }

    /// Counts a failed login (a wrong password or an unknown account) for each account it named, for each of them
    /// from this address, and for the address. Call it in a write.
    package func recordLoginFailure(
        account: String, userIds: [String], client: String?, now: Int64, transaction: any StoreWriteTransaction
    ) throws {
        try transaction.pruneVerification(before: now - SmsCodes.retentionMilliseconds)
        for (subject, _) in Self.accountSubjects(account: account, userIds: userIds) {
            try transaction.recordRateEvent(kind: Self.pairFailureKind, subject: Self.pairSubject(subject, client), at: now)
            try transaction.recordRateEvent(kind: Self.accountFailureKind, subject: subject, at: now)
        }
        if let client {
            try transaction.recordRateEvent(kind: Self.clientFailureKind, subject: "client:\(client)", at: now)
        }
    }

    /// A successful login: forgets the failures of this user from this address and trusts the pair for a day
    /// (rules 2 and 3 stop applying to it). The user's failures from other addresses stay. Call it in a write.
    package static func recordLoginSuccess(
        userId: String, client: String?, now: Int64, transaction: any StoreWriteTransaction
    ) throws {
        let pair = pairSubject("user:\(userId)", client)
        try transaction.clearRateEvents(kind: pairFailureKind, subject: pair)
        guard client != nil else { return }
        try transaction.clearRateEvents(kind: trustedKind, subject: pair)
        try transaction.recordRateEvent(kind: trustedKind, subject: pair, at: now)
    }

    /// Starts a user's failure count afresh after a password reset: failures up to `now`, from every address,
    /// stop counting for rules 1 and 3 (guesses at the old password are moot). Call it in a write.
    package static func clearLoginFailures(userId: String, now: Int64, transaction: any StoreWriteTransaction) throws {
        try transaction.clearRateEvents(kind: accountFailureKind, subject: "user:\(userId)")
        try transaction.clearRateEvents(kind: resetKind, subject: "user:\(userId)")
        try transaction.recordRateEvent(kind: resetKind, subject: "user:\(userId)", at: now)
    }

    /// The subjects failures count under, each with its user: per user when the account exists, else per typed
    /// account.
    private static func accountSubjects(account: String, userIds: [String]) -> [(String, String?)] {
        userIds.isEmpty ? [("account:\(account)", nil)] : userIds.map { ("user:\($0)", $0) }
    }

    /// The subject of an account (as from ``accountSubjects(account:userIds:)``) at a client address.
    private static func pairSubject(_ account: String, _ client: String?) -> String {
        "\(account)|client:\(client ?? "unknown")"
    }

    /// The time of the latest event of `kind` for `subject` since `since`, if any.
    private static func latestEvent(
        _ kind: String, _ subject: String, since: Int64, _ transaction: any StoreReadTransaction
    ) throws -> Int64? {
        try transaction.rateEvents(kind: kind, subject: subject, since: since).max()
    }
}
