/// What a write can do to the account and verification records. None of it is journaled: these are secrets
/// and counters, not object data. Valid only inside the closure given to ``Store/write(caller:_:)``.
package protocol StoreAccountWriteTransaction: StoreAccountReadTransaction {
    /// Sets a user's password hash.
    /// - Throws: ``StoreError``.
    func setCredential(userId: String, hash: String) throws

    /// Records a new session.
    /// - Throws: ``StoreError``.
    func insertSession(_ session: StoredSession) throws

    /// Ends one session. Returns whether it existed.
    /// - Throws: ``StoreError``.
    @discardableResult
    func deleteSession(tokenHash: String) throws -> Bool

    /// Ends a user's sessions except `tokenHash` (all of them when `nil`). Returns how many ended.
    /// - Throws: ``StoreError``.
    @discardableResult
    func deleteSessions(userId: String, except tokenHash: String?) throws -> Int

    /// Removes a user's password hash and sessions (when the user is deleted).
    /// - Throws: ``StoreError``.
    func deleteAccount(userId: String) throws

    /// Records a new SMS code (its own `smsId` is ignored) and returns the `smsId` it was given.
    /// - Throws: ``StoreError``.
    func insertSmsCode(_ code: StoredSmsCode) throws -> Int64

    /// Saves a code's `usedAt`, `failedAttempts` and `delivery`.
    /// - Throws: ``StoreError``.
    func updateSmsCode(_ code: StoredSmsCode) throws

    /// Records an emailed link's token.
    /// - Throws: ``StoreError``.
    func insertEmailToken(_ token: StoredEmailToken) throws

    /// Deletes a user's tokens for `purpose` (a link is used once). Returns how many were deleted.
    /// - Throws: ``StoreError``.
    @discardableResult
    func deleteEmailTokens(userId: String, purpose: StoredEmailToken.Purpose) throws -> Int

    /// Records one rate-limited event of `kind` (a wrong password, a wrong code, a mail sent, …) for `subject`.
    /// - Throws: ``StoreError``.
    func recordRateEvent(kind: String, subject: String, at time: Int64) throws

    /// Forgets the events of `kind` for `subject` (the failures of an account that logged in, say).
    /// - Throws: ``StoreError``.
    func clearRateEvents(kind: String, subject: String) throws

    /// Deletes SMS codes made, email tokens expired and rate-limited events recorded before `time`.
    /// - Throws: ``StoreError``.
    func pruneVerification(before time: Int64) throws
}
