import BmobStore
package import BmobWire

/// Runs decoded native calls through the same services as REST and encodes their answers as the `data` of the
/// native envelope. Only the encoding differs from REST: one object, `{"results":[…]}` (plus `count`), batch
/// results under `results`, the time with an extra `S`.
package struct NativeCallRunner: Sendable {
    /// `create`, `update`, `delete` and `find` of one object.
    package let objects: ObjectService
    /// `find` queries and `cloud_query`.
    package let queries: QueryService
    /// `schemas`.
    package let schemas: SchemaService
    /// `batch`.
    package let batch: BatchService
    /// `timestamp`.
    package let time: TimeService
    /// `signup`, `login`, `check_session`, `logout`, `update_user_password`, and writes to `_User`.
    package let users: UserService
    /// `request_sms_code`, `verify_sms_code`, `query_sms`; without it those routes answer 404.
    package let sms: SmsCodeService?
    /// Writes to `_Role` (create, update, delete); `nil` answers them as any managed class (103).
    package let roles: RoleService?
    /// `reset` with an email and `email_verify`; without it those routes answer 404.
    package let email: EmailLinkService?

    /// A runner over the server's services (the same instances REST uses).
    package init(
        objects: ObjectService, queries: QueryService, schemas: SchemaService, batch: BatchService, time: TimeService,
        users: UserService, sms: SmsCodeService? = nil, email: EmailLinkService? = nil, roles: RoleService? = nil
    ) {
        self.roles = roles
        self.users = users
        self.sms = sms
        self.email = email
        self.objects = objects
        self.queries = queries
        self.schemas = schemas
        self.batch = batch
        self.time = time
    }

    /// Runs `call` for the app of `context`.
    ///
    /// - Returns: the JSON text of the envelope's `data`.
    /// - Throws: ``BmobAPIError`` from the services.
    package func run(_ call: NativeCall, server: ServerContext, context: AppContext) async throws -> [UInt8] {
        switch call {
        case .initialize:
            return initialize(server: server).jsonBytes
        case .timestamp:
            var members = time.timestamp(context: context)
            members["S"] = members["timestamp"]
            return JSONValue.object(members).jsonBytes
        case .create(UserService.className, var fields), .signUp(var fields):
            if let authData = fields.removeValue(forKey: "authData") {
                let (login, _) = try await users.logIn(authData: authData, fields: fields, context: context)
                return UserRoutes.rendered(login, context).jsonBytes
            }
            let login = try await users.signUp(body: fields, context: context)
            return UserRoutes.rendered(login, context).jsonBytes
        case .logIn(let account, let password):
            return UserRoutes.rendered(try await users.logIn(account: account, password: password, context: context), context).jsonBytes
        case .checkSession(let objectId):
            let valid = try await users.checkSession(userId: objectId, context: context)
            return JSONValue.object(["msg": .string(valid ? "ok" : "fail")]).jsonBytes
        case .logOut(let objectId):
            try await users.logOut(userId: objectId, context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        case .updatePassword(let objectId, let oldPassword, let newPassword):
            try await users.updatePassword(userId: objectId, oldPassword: oldPassword, newPassword: newPassword, context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        case .update(UserService.className, let objectId, let body):
            let user = try await users.update(userId: objectId, body: body, context: context)
            return JSONValue.object(["updatedAt": .string(context.renderer.date(user.updatedAt))]).jsonBytes
        case .delete(UserService.className, let objectId):
            try await users.delete(userId: objectId, context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        case .create("_Role", let fields) where roles != nil:
            let role = try await roles!.create(body: fields, context: context)
            let answer: JSONValue = [
                "objectId": .string(role.objectId), "createdAt": .string(context.renderer.date(role.createdAt)),
            ]
            return answer.jsonBytes
        case .update("_Role", let objectId, let body) where roles != nil:
            let role = try await roles!.update(objectId: objectId, body: body, context: context)
            return JSONValue.object(["updatedAt": .string(context.renderer.date(role.updatedAt))]).jsonBytes
        case .delete("_Role", let objectId) where roles != nil:
            try await roles!.delete(objectId: objectId, context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        case .create(let className, let fields):
            let object = try await objects.create(className: className, body: fields, context: context)
            let answer: JSONValue = [
                "objectId": .string(object.objectId), "createdAt": .string(context.renderer.date(object.createdAt)),
            ]
            return answer.jsonBytes
        case .update(let className, let objectId, let body):
            let object = try await objects.update(
                className: className, objectId: objectId, body: body, context: context)
            let answer: JSONValue = ["updatedAt": .string(context.renderer.date(object.updatedAt))]
            return answer.jsonBytes
        case .delete(let className, let objectId):
            try await objects.delete(className: className, objectId: objectId, context: context)
            let answer: JSONValue = ["msg": "ok"]
            return answer.jsonBytes
        case .get(let className, let objectId, let include, let keys):
            return try await objects.get(
                className: className, objectId: objectId, include: include, keys: keys, context: context
            ).jsonBytes
        case .find(let query):
            let answer = try await queries.find(query, context: context)
            return query.limit == 0 && query.count && query.aggregation == nil ? Self.countOnly(answer) : answer
        case .batch(let items):
            let answer: JSONValue = ["results": .array(await batch.run(items, context: context))]
            return answer.jsonBytes
        case .cloudQuery(let bql, let values):
            let answer = try await queries.cloudQuery(
                bql: bql, values: values, nowMilliseconds: server.clock.nowMilliseconds(), context: context)
            return answer
        case .schemas(let className?):
            return try await schemas.get(className: className, context: context).jsonBytes
        case .schemas(nil):
            return try await schemas.all(context: context).jsonBytes
        case .requestSmsCode(let phone, let template):
            let smsId = try await requireSMS().requestCode(mobilePhoneNumber: phone, template: template, context: context)
            return JSONValue.object(["smsId": .int(smsId)]).jsonBytes
        case .verifySmsCode(let phone, let code):
            try await requireSMS().verify(mobilePhoneNumber: phone, smsCode: code, context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        case .querySms(let smsId):
            return try await requireSMS().status(smsId: smsId, context: context).jsonBytes
        case .logInWithSmsCode(let phone, let code, let fields, let allowSignUp):
            let login = try await users.logIn(
                mobilePhoneNumber: phone, smsCode: code, fields: fields, allowSignUp: allowSignUp, context: context)
            return UserRoutes.rendered(login.login, context).jsonBytes
        case .resetPasswordBySmsCode(let code, let password, let phone):
            try await users.resetPassword(
                smsCode: code, password: password, mobilePhoneNumber: phone, client: context.clientAddress,
                context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        case .requestPasswordReset(let address):
            try await requireEmail().requestPasswordReset(email: address, publicURL: server.publicURL, context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        case .requestEmailVerify(let address):
            try await requireEmail().requestEmailVerification(
                email: address, publicURL: server.publicURL, context: context)
            return JSONValue.object(["msg": "ok"]).jsonBytes
        }
    }

    private func requireSMS() throws -> SmsCodeService {
        guard let sms else { throw BmobAPIError(.notFound, "SMS codes are not set up on this server") }
        return sms
    }

    private func requireEmail() throws -> EmailLinkService {
        guard let email else { throw BmobAPIError(.notFound, "email links are not set up on this server") }
        return email
    }

    /// The hosts a native client uses, all this server, and its clock. `isUp: false` tells clients that files
    /// are not uploaded to Upyun.
    private func initialize(server: ServerContext) -> JSONValue {
        let url = JSONValue.string(server.publicURL)
        return [
            "api": url, "file": url, "io": url, "push": url, "other": url,
            "isUp": false, "upyunVer": 0, "timestamp": .int(server.clock.nowSeconds),
        ]
    }

    /// `{"count":n}` from a count-only find's `{"results":[],"count":n}`, as the native SDKs read it.
    private static func countOnly(_ answer: [UInt8]) -> [UInt8] {
        guard let count = (try? JSONParser.parse(answer))?["count"] else { return answer }
        return JSONValue.object(["count": count]).jsonBytes
    }
}
