extension SQLiteWriteTransaction {
    func smsCode(smsId: Int64) throws -> StoredSmsCode? {
        checkActive()
        return try SQLiteVerificationRows.smsCode(connection, smsId: smsId)
    }

    func smsCodes(phone: String, since: Int64) throws -> [StoredSmsCode] {
        checkActive()
        return try SQLiteVerificationRows.smsCodes(connection, phone: phone, since: since)
    }

    func activeSmsCodes(code: String, now: Int64) throws -> [StoredSmsCode] {
        checkActive()
        return try SQLiteVerificationRows.activeSmsCodes(connection, code: code, now: now)
    }

    func emailToken(tokenHash: String) throws -> StoredEmailToken? {
        checkActive()
        return try SQLiteVerificationRows.emailToken(connection, tokenHash: tokenHash)
    }

    func rateEvents(kind: String, subject: String, since: Int64) throws -> [Int64] {
        checkActive()
        return try SQLiteVerificationRows.rateEvents(connection, kind: kind, subject: subject, since: since)
    }

    func insertSmsCode(_ code: StoredSmsCode) throws -> Int64 {
        checkActive()
        return try SQLiteVerificationRows.insertSmsCode(connection, code)
    }

    func updateSmsCode(_ code: StoredSmsCode) throws {
        checkActive()
        try SQLiteVerificationRows.updateSmsCode(connection, code)
    }

    func insertEmailToken(_ token: StoredEmailToken) throws {
        checkActive()
        try SQLiteVerificationRows.insertEmailToken(connection, token)
    }

    @discardableResult
    func deleteEmailTokens(userId: String, purpose: StoredEmailToken.Purpose) throws -> Int {
        checkActive()
        return try SQLiteVerificationRows.deleteEmailTokens(connection, userId: userId, purpose: purpose)
    }

    func recordRateEvent(kind: String, subject: String, at time: Int64) throws {
        checkActive()
        try SQLiteVerificationRows.recordRateEvent(connection, kind: kind, subject: subject, at: time)
    }

    func clearRateEvents(kind: String, subject: String) throws {
        checkActive()
        try SQLiteVerificationRows.clearRateEvents(connection, kind: kind, subject: subject)
    }

    func pruneVerification(before time: Int64) throws {
        checkActive()
        try SQLiteVerificationRows.prune(connection, before: time)
    }
}
