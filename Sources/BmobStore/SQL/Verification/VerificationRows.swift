/// The SQL for verification: `__sms_code` (codes sent by SMS, with their use and delivery), `__email_token`
/// (hashed secrets of emailed links) and `__rate_event` (wrong passwords and codes, mails sent: what rate
/// limits count). Like accounts, these tables sit beside the classes, so no query or journal entry returns them.
enum VerificationRows {
    static let createTables = """
        CREATE TABLE "__sms_code" (
            smsId INTEGER PRIMARY KEY AUTOINCREMENT,
            phone TEXT NOT NULL,
            code TEXT NOT NULL,
            template TEXT,
            createdAt INTEGER NOT NULL,
            expiresAt INTEGER NOT NULL,
            usedAt INTEGER,
            failedAttempts INTEGER NOT NULL DEFAULT 0,
            delivery TEXT NOT NULL
        );
        CREATE INDEX "__sms_code_phone" ON "__sms_code" (phone, createdAt);
        CREATE INDEX "__sms_code_code" ON "__sms_code" (code, expiresAt);
        CREATE INDEX "__sms_code_created" ON "__sms_code" (createdAt);
        CREATE TABLE "__email_token" (
            tokenHash TEXT PRIMARY KEY NOT NULL,
            purpose TEXT NOT NULL,
            userId TEXT NOT NULL,
            email TEXT NOT NULL,
            createdAt INTEGER NOT NULL,
            expiresAt INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX "__email_token_user" ON "__email_token" (userId, purpose);
        CREATE INDEX "__email_token_expires" ON "__email_token" (expiresAt);
        CREATE TABLE "__rate_event" (
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            at INTEGER NOT NULL
        );
        CREATE INDEX "__rate_event_subject" ON "__rate_event" (kind, subject, at);
        CREATE INDEX "__rate_event_at" ON "__rate_event" (at);
        """

    private static let codeColumns =
        "smsId, phone, code, template, createdAt, expiresAt, usedAt, failedAttempts, delivery"

    static func smsCode(_ connection: some SQLStoreConnection, smsId: Int64) throws -> StoredSmsCode? {
        try connection.firstRow(
            #"SELECT \#(codeColumns) FROM "__sms_code" WHERE smsId = ?"#, [.integer(smsId)], codeRow) ?? nil
    }

    static func smsCodes(_ connection: some SQLStoreConnection, phone: String, since: Int64) throws -> [StoredSmsCode] {
        try connection.rows(
            #"SELECT \#(codeColumns) FROM "__sms_code" WHERE phone = ? AND createdAt >= ? "#
                + "ORDER BY createdAt DESC, smsId DESC",
            [.text(phone), .integer(since)], codeRow
        ).compactMap { $0 }
    }

    static func activeSmsCodes(_ connection: some SQLStoreConnection, code: String, now: Int64) throws -> [StoredSmsCode] {
        try connection.rows(
            #"SELECT \#(codeColumns) FROM "__sms_code" WHERE code = ? AND expiresAt > ? AND usedAt IS NULL "#
                + "ORDER BY createdAt DESC, smsId DESC",
            [.text(code), .integer(now)], codeRow
        ).compactMap { $0 }
    }

    static func insertSmsCode(_ connection: some SQLStoreConnection, _ code: StoredSmsCode) throws -> Int64 {
        try connection.firstRow(
            #"INSERT INTO "__sms_code" "#
                + "(phone, code, template, createdAt, expiresAt, usedAt, failedAttempts, delivery) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING smsId",
            [
                .text(code.phone), .text(code.code), SQLValue(code.template), .integer(code.createdAt),
                .integer(code.expiresAt), code.usedAt.map(SQLValue.integer) ?? .null,
                .integer(Int64(code.failedAttempts)), .text(code.delivery.rawValue),
            ]
        ) { $0.int64(0) } ?? 0
    }

    static func updateSmsCode(_ connection: some SQLStoreConnection, _ code: StoredSmsCode) throws {
        try connection.run(
            #"UPDATE "__sms_code" SET usedAt = ?, failedAttempts = ?, delivery = ? WHERE smsId = ?"#,
            [
                code.usedAt.map(SQLValue.integer) ?? .null, .integer(Int64(code.failedAttempts)),
                .text(code.delivery.rawValue), .integer(code.smsId),
            ])
    }

    static func emailToken(_ connection: some SQLStoreConnection, tokenHash: String) throws -> StoredEmailToken? {
        try connection.firstRow(
            #"SELECT tokenHash, purpose, userId, email, createdAt, expiresAt FROM "__email_token" WHERE tokenHash = ?"#,
            [.text(tokenHash)]
        ) { row -> StoredEmailToken? in
            guard let tokenHash = row.text(0), let purpose = row.text(1).flatMap(StoredEmailToken.Purpose.init),
                let userId = row.text(2), let email = row.text(3)
            else { return nil }
            return StoredEmailToken(
                tokenHash: tokenHash, purpose: purpose, userId: userId, email: email, createdAt: row.int64(4),
                expiresAt: row.int64(5))
        } ?? nil
    }

    static func insertEmailToken(_ connection: some SQLStoreConnection, _ token: StoredEmailToken) throws {
        try connection.run(
            #"INSERT INTO "__email_token" (tokenHash, purpose, userId, email, createdAt, expiresAt) "#
                + "VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(token.tokenHash), .text(token.purpose.rawValue), .text(token.userId), .text(token.email),
                .integer(token.createdAt), .integer(token.expiresAt),
            ])
    }

    static func deleteEmailTokens(
        _ connection: some SQLStoreConnection, userId: String, purpose: StoredEmailToken.Purpose
    ) throws -> Int {
        try connection.run(
            #"DELETE FROM "__email_token" WHERE userId = ? AND purpose = ?"#, [.text(userId), .text(purpose.rawValue)])
    }

    static func rateEvents(_ connection: some SQLStoreConnection, kind: String, subject: String, since: Int64) throws
        -> [Int64]
    {
        try connection.rows(
            #"SELECT at FROM "__rate_event" WHERE kind = ? AND subject = ? AND at >= ? ORDER BY at"#,
            [.text(kind), .text(subject), .integer(since)]
        ) { $0.int64(0) }
    }

    static func recordRateEvent(_ connection: some SQLStoreConnection, kind: String, subject: String, at time: Int64) throws {
        try connection.run(
            #"INSERT INTO "__rate_event" (kind, subject, at) VALUES (?, ?, ?)"#,
            [.text(kind), .text(subject), .integer(time)])
    }

    static func clearRateEvents(_ connection: some SQLStoreConnection, kind: String, subject: String) throws {
        try connection.run(
            #"DELETE FROM "__rate_event" WHERE kind = ? AND subject = ?"#, [.text(kind), .text(subject)])
    }

    static func prune(_ connection: some SQLStoreConnection, before time: Int64) throws {
        try connection.run(#"DELETE FROM "__sms_code" WHERE createdAt < ?"#, [.integer(time)])
        try connection.run(#"DELETE FROM "__email_token" WHERE expiresAt < ?"#, [.integer(time)])
        try connection.run(#"DELETE FROM "__rate_event" WHERE at < ?"#, [.integer(time)])
    }

    private static func codeRow(_ row: some SQLRow) -> StoredSmsCode? {
        guard let phone = row.text(1), let code = row.text(2),
            let delivery = row.text(8).flatMap(StoredSmsCode.Delivery.init)
        else { return nil }
        return StoredSmsCode(
            smsId: row.int64(0), phone: phone, code: code, template: row.text(3), createdAt: row.int64(4),
            expiresAt: row.int64(5), usedAt: row.isNull(6) ? nil : row.int64(6),
            failedAttempts: Int(row.int64(7)), delivery: delivery)
    }
}
