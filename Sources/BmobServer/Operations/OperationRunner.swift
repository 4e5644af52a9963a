import BmobStore
import BmobWire

/// Runs ``Operation``s for every door: resolves the caller once per operation (and once per batch element
/// with its own session token), routes classes in one place, and answers a typed ``OperationResult``.
///
/// Class routing: `_User` writes are the user service's (a create is a signup, or a third-party login when the
/// body has `authData`); `_Role` writes the role service's; `_Installation` and `_Session` cannot be written;
/// every class is read through the object and query services, which apply ACLs, class permissions and `_User`
/// privacy.
package struct OperationRunner: Sendable {
    package let objects: ObjectService
    package let queries: QueryService
    package let users: UserService
    package let roles: RoleService
    package let schemas: SchemaService
    package let sms: SmsCodeService
    package let email: EmailLinkService
    package let time: TimeService
    package let files: FileService
    package let functions: CloudFunctionService
    package let history: HistoryService
    package let callers: CallerResolver
    package let server: ServerContext

    /// A runner over the server's services.
    package init(
        objects: ObjectService, queries: QueryService, users: UserService, roles: RoleService, schemas: SchemaService,
        sms: SmsCodeService, email: EmailLinkService, time: TimeService, files: FileService,
        functions: CloudFunctionService, history: HistoryService, callers: CallerResolver, server: ServerContext
    ) {
        self.functions = functions
        self.history = history
        self.objects = objects
        self.queries = queries
        self.users = users
        self.roles = roles
        self.schemas = schemas
        self.sms = sms
        self.email = email
        self.time = time
        self.files = files
        self.callers = callers
        self.server = server
    }

    /// Runs `operation` as the caller of `context`.
    ///
    /// - Throws: ``BmobAPIError`` from the services.
    package func run(_ operation: Operation, context: AppContext) async throws -> OperationResult {
        // A caller without a session token resolves without a read; only a token is worth resolving (and
        // caching) before the services ask, so that they ask once.
        let context = context.sessionToken == nil ? context : try await callers.resolving(context)
        history.pruner.pruneSoon(context)
        if functions.functions.hasTriggers || !context.app.webhooks.triggers.isEmpty {
            return try await runWithTriggers(operation, context: context)
        }
        return try await perform(operation, context: context)
    }

    /// Runs `operation` for a resolved caller, without triggers.
    func perform(_ operation: Operation, context: AppContext) async throws -> OperationResult {
        switch operation {
        case .create(let className, let body):
            return try await create(className: className, body: body, context: context)
        case .get(let className, let objectId, let include, let keys):
            if let json = try await objects.storedJSON(
                className: className, objectId: objectId, include: include, keys: keys, context: context)
            {
                return .objectJSON(json)
            }
            return .object(
                try await objects.get(
                    className: className, objectId: objectId, include: include, keys: keys, context: context))
        case .update(let className, let objectId, let body):
            switch className {
            case UserService.className:
                return .updated(try await users.update(userId: objectId, body: body, context: context))
            case RoleService.className:
                return .updated(try await roles.update(objectId: objectId, body: body, context: context))
            default:
                return .updated(
                    try await objects.update(className: className, objectId: objectId, body: body, context: context))
            }
        case .delete(let className, let objectId):
            switch className {
            case UserService.className: try await users.delete(userId: objectId, context: context)
            case RoleService.className: try await roles.delete(objectId: objectId, context: context)
            default: try await objects.delete(className: className, objectId: objectId, context: context)
            }
            return .done
        case .find(let query):
            let answer = try await queries.find(query, context: context)
            return .found(answer, countOnly: query.limit == 0 && query.count && query.aggregation == nil)
        case .cloudQuery(let bql, let values):
            let answer = try await queries.cloudQuery(
                bql: bql, values: values, nowMilliseconds: server.clock.nowMilliseconds(), context: context)
            return .found(answer, countOnly: false)
        case .batch(let items):
            return .batch(await batch(items, context: context))
        case .signUp(let fields):
            return .signedUp(try await users.signUp(body: fields, context: context))
        case .logIn(let account, let password):
            return .loggedIn(
                try await users.logIn(account: account, password: password, context: context), answersCreated: false)
        case .logInWithAuthData(let authData, let fields):
            let (login, created) = try await users.logIn(authData: authData, fields: fields, context: context)
            return .loggedIn(login, answersCreated: created)
        case .logInWithSmsCode(let phone, let code, let fields, let allowSignUp):
            let login = try await users.logIn(
                mobilePhoneNumber: phone, smsCode: code, fields: fields, allowSignUp: allowSignUp, context: context)
            // Bmob answers a phone signup as it answers a login.
            return .loggedIn(login.login, answersCreated: false)
        case .logOut(let userId):
            try await users.logOut(userId: userId, context: context)
            return .done
        case .checkSession(let userId):
            return .sessionCheck(try await users.checkSession(userId: userId, context: context))
        case .updatePassword(let userId, let oldPassword, let newPassword):
            try await users.updatePassword(
                userId: userId, oldPassword: oldPassword, newPassword: newPassword, context: context)
            return .done
        case .listSessions(let userId):
            return .sessions(try await users.sessions(userId: userId, context: context))
        case .revokeSession(let userId, let sessionId):
            try await users.revokeSession(userId: userId, sessionId: sessionId, context: context)
            return .done
        case .requestSmsCode(let phone, let template):
            return .smsSent(
                smsId: try await sms.requestCode(mobilePhoneNumber: phone, template: template, context: context))
        case .verifySmsCode(let phone, let code):
            try await sms.verify(mobilePhoneNumber: phone, smsCode: code, context: context)
            return .done
        case .querySms(let smsId):
            return .document(try await sms.status(smsId: smsId, context: context))
        case .resetPasswordBySmsCode(let code, let password, let phone):
            try await users.resetPassword(
                smsCode: code, password: password, mobilePhoneNumber: phone, client: context.clientAddress,
                context: context)
            return .done
        case .requestPasswordReset(let address):
            try await email.requestPasswordReset(email: address, publicURL: server.publicURL, context: context)
            return .done
        case .requestEmailVerify(let address):
            try await email.requestEmailVerification(email: address, publicURL: server.publicURL, context: context)
            return .done
        case .schemas(let className?):
            return .document(try await schemas.get(className: className, context: context))
        case .schemas(nil):
            return .document(try await schemas.all(context: context))
        case .saveSchema(let className, let body, let create):
            return .document(try await schemas.update(className: className, body: body, create: create, context: context))
        case .deleteSchema(let className):
            try await schemas.delete(className: className, context: context)
            return .done
        case .timestamp:
            let stamp = time.timestamp(context: context)
            return .timestamp(seconds: stamp["timestamp"]?.int64Value ?? 0, datetime: stamp["datetime"]?.stringValue ?? "")
        case .uploadFile(let filename, let mimeType, let bytes):
            return .document(
                try await files.upload(filename: filename, mimeType: mimeType, bytes: bytes, context: context).json)
        case .deleteFile(let reference):
            try await files.delete(reference, context: context)
            return .done
        case .deleteFiles(let references):
            try await files.deleteBatch(references, context: context)
            return .done
        case .callFunction(let name, let params, let paramsAsStrings):
            return .functionResult(
                try await functions.call(
                    name: name, params: params, paramsAsStrings: paramsAsStrings, context: context, runner: self))
        case .signFileURLs(let references, let expiresIn):
            return .document(try await files.signedURLs(references, expiresIn: expiresIn, context: context))
        case .planUpload(let filename, let size, let resume):
            return .document(try await files.planUpload(filename: filename, size: size, resume: resume, context: context))
        case .history(let className, let objectId?, let filter):
            return .document(
                try await history.objectHistory(className: className, objectId: objectId, filter: filter, context: context))
        case .history(let className, nil, let filter):
            return .document(try await history.classHistory(className: className, filter: filter, context: context))
        case .deletedObjects(let className, let filter):
            return .document(try await history.deletedObjects(className: className, filter: filter, context: context))
        case .revert(let className, let objectId, let seq, let ifUpdatedAt):
            return .document(
                try await history.revert(
                    className: className, objectId: objectId, seq: seq, ifUpdatedAt: ifUpdatedAt, context: context
                ).answer)
        case .restore(let className, let objectId):
            return .document(try await history.restore(className: className, objectId: objectId, context: context).answer)
        case .serverInfo:
            return .document(ServerInfo.document(server: server, functions: functions, app: context.app))
        case .registerUpload(let filename, let size, let uploadToken):
            return .document(
                try await files.registerUpload(filename: filename, size: size, uploadToken: uploadToken, context: context)
                    .json)
        }
    }

    /// A create, routed by class.
    private func create(className: String, body: [String: JSONValue], context: AppContext) async throws
        -> OperationResult
    {
        switch className {
        case UserService.className:
            var fields = body
            if let authData = fields.removeValue(forKey: "authData") {
                let (login, created) = try await users.logIn(authData: authData, fields: fields, context: context)
                return .loggedIn(login, answersCreated: created)
            }
            return .signedUp(try await users.signUp(body: fields, context: context))
        case RoleService.className:
            return .created(try await roles.create(body: body, context: context))
        default:
            return .created(try await objects.create(className: className, body: body, context: context))
        }
    }

    /// Runs batch elements in order; one failing does not stop the others. An element with its own session
    /// token runs as that token's caller (resolved once for the element); the others share the request's.
    /// A 5xx element is logged with the request id, which its message then carries.
    private func batch(_ items: [BatchItem], context: AppContext) async -> [Result<OperationResult, BmobAPIError>] {
        var results: [Result<OperationResult, BmobAPIError>] = []
        results.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            var element = context
            if let token = item.sessionToken, token != context.sessionToken {
                element.sessionToken = token
                element.caller = nil
            }
            do {
                results.append(.success(try await run(item.operation, context: element)))
            } catch {
                let failure =
                    context.trace?.answer(for: error, route: "\(context.trace?.route ?? "batch") element \(index)")
                    ?? RequestTrace.bmobError(error)
                results.append(.failure(failure))
            }
        }
        return results
    }
}
