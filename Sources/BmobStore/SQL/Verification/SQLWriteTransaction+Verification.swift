extension SQLWriteTransaction {
    func smsCode(smsId: Int64) throws -> StoredSmsCode? {
        checkActive()
        return try VerificationRows.smsCode(connection, smsId: smsId)
    }

    func smsCodes(phone: String, since: Int64) throws -> [StoredSmsCode] {
        checkActive()
        return try VerificationRows.smsCodes(connection, phone: phone, since: since)
    }

    func activeSmsCodes(code: String, now: Int64) throws -> [StoredSmsCode] {
        checkActive()
        return try VerificationRows.activeSmsCodes(connection, code: code, now: now)
    }

    func emailToken(tokenHash: String) throws -> StoredEmailToken? {
        checkActive()
        return try VerificationRows.emailToken(connection, tokenHash: tokenHash)
    }

    func rateEvents(kind: String, subject: String, since: Int64) throws -> [Int64] {
        checkActive()
        return try VerificationRows.rateEvents(connection, kind: kind, subject: subject, since: since)
    }

    func insertSmsCode(_ code: StoredSmsCode) throws -> Int64 {
        checkActive()
        return try VerificationRows.insertSmsCode(connection, code)
    }

    func updateSmsCode(_ code: StoredSmsCode) throws {
        checkActive()
        try VerificationRows.updateSmsCode(connection, code)
    }

    func insertEmailToken(_ token: StoredEmailToken) throws {
        checkActive()
        try VerificationRows.insertEmailToken(connection, token)
    }

    @discardableResult
    func deleteEmailTokens(userId: String, purpose: StoredEmailToken.Purpose) throws -> Int {
        checkActive()
        return try VerificationRows.deleteEmailTokens(connection, userId: userId, purpose: purpose)
    }

    func recordRateEvent(kind: String, subject: String, at time: Int64) throws {
        checkActive()
        try VerificationRows.recordRateEvent(connection, kind: kind, subject: subject, at: time)
    }

    func clearRateEvents(kind: String, subject: String) throws {
        checkActive()
        try VerificationRows.clearRateEvents(connection, kind: kind, subject: subject)
    }

    func pruneVerification(before time: Int64) throws {
        checkActive()
        try VerificationRows.prune(connection, before: time)
    }
}
