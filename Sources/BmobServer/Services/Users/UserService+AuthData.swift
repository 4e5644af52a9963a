import BmobCrypto
import BmobStore
package import BmobWire

extension UserService {
    /// The validated identity of one platform's login data, ready to store as `authData.<platform>`: only the
    /// account id, under `id` (`nil` data unlinks the platform). The tokens that proved it are checked and
    /// dropped: login needs the id alone, and a stored token is a secret anyone who can read the user could use.
    package struct AuthLink: Sendable {
        package var platform: String
        package var data: [String: JSONValue]?
        package var accountId: String?
    }

    /// Third-party login (`POST /1/users` with `authData`, native `signup` with `authData`): logs into the
    /// account linked to that platform identity, or creates one (random username) with `fields`.
    ///
    /// - Returns: the login and whether the user was created (REST answers 201 then, 200 otherwise).
    /// - Throws: 208 for missing, unconfigured or invalid login data.
    package func logIn(authData: JSONValue, fields: [String: JSONValue], context: AppContext) async throws -> (Login, created: Bool) {
        guard case .object(let platforms) = authData, platforms.count == 1, let (platform, data) = platforms.first,
            case .object = data
        else {
            throw BmobAPIError(.authDataError, "authData must hold exactly one platform's login data")
        }
        guard let link = try await validatedLinks(authData, context: context)?.first, let accountId = link.accountId,
            let linked = link.data
        else {
            throw BmobAPIError(.authDataError, "authData.\(platform) is missing")
        }
        var userFields = fields
        for name in Self.protectedFields { userFields[name] = nil }
        userFields["authData"] = [platform: .object(linked)]
        if userFields["username"]?.stringValue?.isEmpty ?? true {
            userFields["username"] = .string(SecureRandom.hex(byteCount: 8))
        }
        try Self.checkIdentityTypes(userFields)
        let now = clock.nowMilliseconds()
        let (token, session) = makeSession(now: now)
        let ids = self.ids
        let newUser = userFields
        let (user, created) = try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                if var existing = try Self.linkedUser(platform: platform, accountId: accountId, transaction: transaction) {
                    // Links stored before tokens were dropped still hold them: keep the ids only.
                    if let stored = existing.fields["authData"], stored != UserPrivacy.linkedIds(stored) {
                        existing = try ObjectService.update(
                            className: Self.className, objectId: existing.objectId,
                            body: ["authData": UserPrivacy.linkedIds(stored)], now: now, transaction: transaction)
                    }
                    try transaction.insertSession(session(existing.objectId))
                    return (existing, false)
                }
                try Self.checkUnique(newUser, except: nil, transaction: transaction)
                let user = try ObjectService.insert(
                    className: Self.className, body: newUser, now: now, ids: ids,
                    security: context.app.security, transaction: transaction)
                try transaction.insertSession(session(user.objectId))
                return (user, true)
            }
        }
        return (Login(user: user, sessionToken: token), created)
    }

    /// Validates each platform of an `authData` update (`null` unlinks); `nil` when there is none.
    func validatedLinks(_ authData: JSONValue?, context: AppContext) async throws -> [AuthLink]? {
        guard let authData else { return nil }
        guard case .object(let platforms) = authData else {
            throw BmobAPIError(.authDataError, "authData must be an object")
        }
        var links: [AuthLink] = []
        for (platform, data) in platforms.sorted(by: { $0.key < $1.key }) {
            guard BmobName.isValidFieldName(platform) else {
                throw BmobAPIError(.authDataError, "invalid authData platform '\(platform)'")
            }
            switch data {
            case .null:
                links.append(AuthLink(platform: platform, data: nil, accountId: nil))
            case .object(let members):
                let validator = try validators.validator(platform: platform, app: context.app)
                let accountId = try await validator.validate(platform: platform, authData: members)
                links.append(AuthLink(platform: platform, data: ["id": .string(accountId)], accountId: accountId))
            default:
                throw BmobAPIError(.authDataError, "authData.\(platform) must be an object or null")
            }
        }
        return links
    }

    /// The user's `authData` after linking and unlinking `links`.
    ///
    /// - Throws: 208 when another user already has one of the identities.
    static func linkedAuthData(_ links: [AuthLink], userId: String, transaction: any StoreWriteTransaction) throws -> JSONValue {
        guard let user = try transaction.fetch(className: className, objectId: userId) else {
            throw BmobAPIError.objectNotFound(userId)
        }
        var authData = user.fields["authData"]?.objectValue ?? [:]
        for link in links {
            guard let data = link.data, let accountId = link.accountId else {
                authData[link.platform] = nil
                continue
            }
            if let owner = try linkedUser(platform: link.platform, accountId: accountId, transaction: transaction),
                owner.objectId != userId
            {
                throw BmobAPIError(.authDataError, "this \(link.platform) account is already linked to another user")
            }
            authData[link.platform] = .object(data)
        }
        return .object(authData)
    }

    /// The user whose `authData.<platform>.id` is `accountId`.
    static func linkedUser(platform: String, accountId: String, transaction: any StoreReadTransaction) throws -> StoredObject? {
        try users(where: "authData.\(platform).id", is: accountId, limit: 1, transaction: transaction).first
    }
}
