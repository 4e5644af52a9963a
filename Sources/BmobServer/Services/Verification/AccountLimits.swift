/// The server-wide numbers that protect accounts from guessing and the server's SMS and mail from abuse:
/// how failed logins slow further attempts down (see ``UserService/checkLoginLimits(account:userIds:client:now:transaction:)``),
/// and how many password signups, SMS codes and emailed links one client address and one app may ask for.
///
/// Part of ``ServerConfiguration`` (settings `login…`, `signupsPerClientPerHour`, `smsCodesPer…`,
/// `emailRequestsPer…`); every app counts its own events in its own store.
package struct AccountLimits: Sendable, Equatable {
    // MARK: - Failed logins

    /// Failed logins for one account from one client address before each further attempt from that address
    /// waits (1 s, doubling per failure, up to ``loginMaxDelaySeconds``). A successful login from the address
    /// forgets them.
    package var loginFreeFailures = 5
    /// Failed logins from one client address, whatever the account, before its further attempts wait the same
    /// way. Does not slow an account that logged in successfully from that address within the last day.
    package var loginClientFreeFailures = 50
    /// Failed logins for one account, whatever the address, before attempts from addresses that have not logged
    /// in to it within the last day wait (1 s, doubling, up to ``loginAccountMaxDelaySeconds``): a guard against
    /// guessing from many addresses that slows the guessers without locking the owner out.
    package var loginAccountFreeFailures = 20
    /// The longest wait per account and address, and per address.
    package var loginMaxDelaySeconds = 900
    /// The longest wait of the per-account guard; short, since it can also slow the owner on a new address.
    package var loginAccountMaxDelaySeconds = 60
    /// How long a failed login counts. At most a day: the store forgets rate events after one.
    package var loginFailureWindowSeconds = 86_400

    // MARK: - Requests per client address and per app

    /// Password signups per client address per hour (the master key is not limited). Generous, since offices,
    /// schools and mobile carriers put many people behind one address; it bounds scripted account creation and
    /// the scrypt work one address can cause.
    package var signupsPerClientPerHour = 30
    /// SMS codes per client address per hour, on top of the per-number limits.
    package var smsCodesPerClientPerHour = 20
    /// SMS codes per app per hour: a ceiling on what a distributed abuser can make the app's SMS account pay.
    package var smsCodesPerAppPerHour = 1000
    /// Password-reset and email-verification requests per client address per hour, on top of the per-address
    /// mail limits.
    package var emailRequestsPerClientPerHour = 20
    /// Password-reset and email-verification requests per app per hour.
    package var emailRequestsPerAppPerHour = 1000

    /// The defaults.
    package init() {}

    /// The first wait after the free failures; each further failure doubles it.
    package static let loginBaseDelayMilliseconds: Int64 = 1000

    /// The backoff of one account from one client address.
    package var loginPairBackoff: Backoff {
        Backoff(
            freeFailures: loginFreeFailures, baseMilliseconds: Self.loginBaseDelayMilliseconds,
            maximumMilliseconds: Int64(loginMaxDelaySeconds) * 1000)
    }

    /// The backoff of one client address, whatever the account.
    package var loginClientBackoff: Backoff {
        Backoff(
            freeFailures: loginClientFreeFailures, baseMilliseconds: Self.loginBaseDelayMilliseconds,
            maximumMilliseconds: Int64(loginMaxDelaySeconds) * 1000)
    }

    /// The backoff of one account, whatever the address.
    package var loginAccountBackoff: Backoff {
        Backoff(
            freeFailures: loginAccountFreeFailures, baseMilliseconds: Self.loginBaseDelayMilliseconds,
            maximumMilliseconds: Int64(loginAccountMaxDelaySeconds) * 1000)
    }

    /// How long a failed login counts, in milliseconds.
    package var loginFailureWindowMilliseconds: Int64 { Int64(loginFailureWindowSeconds) * 1000 }

    /// Password signups per client address.
    package var signupQuota: RequestQuota {
        RequestQuota(kind: "signup", perClient: .perHour(signupsPerClientPerHour), perApp: nil)
    }

    /// SMS codes per client address and per app.
    package var smsQuota: RequestQuota {
        RequestQuota(kind: "smsRequest", perClient: .perHour(smsCodesPerClientPerHour), perApp: .perHour(smsCodesPerAppPerHour))
    }

    /// Emailed links (password resets and verifications together) per client address and per app.
    package var emailQuota: RequestQuota {
        RequestQuota(
            kind: "mailRequest", perClient: .perHour(emailRequestsPerClientPerHour),
            perApp: .perHour(emailRequestsPerAppPerHour))
    }
}
