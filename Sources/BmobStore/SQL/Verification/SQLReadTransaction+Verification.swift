extension SQLReadTransaction {
    func smsCode(smsId: Int64) throws -> StoredSmsCode? {
        try checkUsable()
        return try VerificationRows.smsCode(connection, smsId: smsId)
    }

    func smsCodes(phone: String, since: Int64) throws -> [StoredSmsCode] {
        try checkUsable()
        return try VerificationRows.smsCodes(connection, phone: phone, since: since)
    }

    func activeSmsCodes(code: String, now: Int64) throws -> [StoredSmsCode] {
        try checkUsable()
        return try VerificationRows.activeSmsCodes(connection, code: code, now: now)
    }

    func emailToken(tokenHash: String) throws -> StoredEmailToken? {
        try checkUsable()
        return try VerificationRows.emailToken(connection, tokenHash: tokenHash)
    }

    func rateEvents(kind: String, subject: String, since: Int64) throws -> [Int64] {
        try checkUsable()
        return try VerificationRows.rateEvents(connection, kind: kind, subject: subject, since: since)
    }
}
