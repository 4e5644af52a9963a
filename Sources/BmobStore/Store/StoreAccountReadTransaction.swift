/// What a read of the account and verification records can do: password hashes, sessions, SMS codes, emailed
/// link tokens and rate-limited events. These records sit beside the classes, so no query, include or journal
/// entry returns them. Valid only inside a transaction's closure, like ``StoreCoreReadTransaction``.
package protocol StoreAccountReadTransaction {
    /// The stored password hash of a `_User`, if it has one.
    /// - Throws: ``StoreError``.
    func credential(userId: String) throws -> String?

    /// The session whose token hashes to `tokenHash`, expired or not.
    /// - Throws: ``StoreError``.
    func session(tokenHash: String) throws -> StoredSession?

    /// A user's sessions, oldest first.
    /// - Throws: ``StoreError``.
    func sessions(userId: String) throws -> [StoredSession]

    /// The SMS code with this `smsId`, used or not.
    /// - Throws: ``StoreError``.
    func smsCode(smsId: Int64) throws -> StoredSmsCode?

    /// The SMS codes sent to `phone` at or after `since` (milliseconds since 1970), newest first.
    /// - Throws: ``StoreError``.
    func smsCodes(phone: String, since: Int64) throws -> [StoredSmsCode]

    /// The codes with these digits, for any phone number, that are unused and unexpired at `now`, newest first.
    /// - Throws: ``StoreError``.
    func activeSmsCodes(code: String, now: Int64) throws -> [StoredSmsCode]

    /// The emailed-link token whose secret hashes to `tokenHash`, expired or not.
    /// - Throws: ``StoreError``.
    func emailToken(tokenHash: String) throws -> StoredEmailToken?

    /// When the rate-limited events of `kind` (a wrong password, a wrong code, a mail sent, …) for `subject`
    /// happened, at or after `since`, oldest first.
    /// - Throws: ``StoreError``.
    func rateEvents(kind: String, subject: String, since: Int64) throws -> [Int64]
}
