import BmobCrypto
import BmobStore
import BmobWire

/// The trigger layer (``TriggerEvent``): around the operations of classes that have triggers, for every door and
/// batch element alike. `before…` triggers run in the request and may change or refuse it; `after…` triggers run
/// detached once the operation is answered, so they never hold or undo a write (their failures are logged).
extension OperationRunner {
    func runWithTriggers(_ operation: Operation, context: AppContext) async throws -> OperationResult {
        switch operation {
        case .create(let className, let body):
            let fields = try await beforeSave(className, body, original: nil, context: context)
            let result = try await perform(.create(className: className, body: fields), context: context)
            if case .created(let object) = result { after(.afterSave, className, object: object, context: context) }
            return result
        case .signUp(let body):
            let className = UserService.className
            let fields = try await beforeSave(className, body, original: nil, context: context)
            let result = try await perform(.signUp(fields: fields), context: context)
            if case .signedUp(let login) = result { after(.afterSave, className, object: login.user, context: context) }
            return result
        case .update(let className, let objectId, let body):
            var fields = body
            if trigger(.beforeSave, className: className, context: context) != nil {
                let original = try await stored(className, objectId, context: context)
                fields = try await beforeSave(className, body, original: original, context: context)
            }
            let result = try await perform(.update(className: className, objectId: objectId, body: fields), context: context)
            if case .updated(let object) = result { after(.afterSave, className, object: object, context: context) }
            return result
        case .revert(let className, let objectId, let seq, let ifUpdatedAt):
            let written = try await history.revert(
                className: className, objectId: objectId, seq: seq, ifUpdatedAt: ifUpdatedAt, context: context,
                beforeSave: saveTrigger(className, context: context))
            after(.afterSave, className, object: written.object, context: context)
            return .document(written.answer)
        case .restore(let className, let objectId):
            let written = try await history.restore(
                className: className, objectId: objectId, context: context,
                beforeSave: saveTrigger(className, context: context))
            after(.afterSave, className, object: written.object, context: context)
            return .document(written.answer)
        case .delete(let className, let objectId):
            let before = trigger(.beforeDelete, className: className, context: context)
            let afterDelete = trigger(.afterDelete, className: className, context: context)
            guard before != nil || afterDelete != nil else { return try await perform(operation, context: context) }
            let original = try await stored(className, objectId, context: context)
            if let before, let original {
                _ = try await call(before, request(.beforeDelete, className, object: render(original, context), context: context))
            }
            let result = try await perform(operation, context: context)
            if let original { after(.afterDelete, className, object: original, context: context) }
            return result
        case .find(var query):
            if let before = trigger(.beforeFind, className: query.className, context: context) {
                var asked = request(.beforeFind, query.className, context: context)
                asked.query = query
                if let narrowing = try await call(before, asked), narrowing != .null {
                    guard let condition = try? WhereParser.parse(narrowing) else {
                        throw BmobAPIError(.cloudCodeError, "the beforeFind trigger of \(query.className) answered an invalid where")
                    }
                    query.condition = query.condition.map { .and([$0, condition]) } ?? condition
                }
            }
            let result = try await perform(.find(query), context: context)
            guard let afterFind = trigger(.afterFind, className: query.className, context: context),
                case .found(let bytes, let countOnly) = result, !countOnly,
                case .object(var answer)? = try? JSONParser.parse(bytes), case .array(let results)? = answer["results"]
            else { return result }
            var asked = request(.afterFind, query.className, context: context)
            asked.results = results
            if case .array(let replaced)? = try await call(afterFind, asked) { answer["results"] = .array(replaced) }
            return .found(JSONValue.object(answer).jsonBytes, countOnly: false)
        case .logIn, .logInWithAuthData, .logInWithSmsCode:
            let result = try await perform(operation, context: context)
            guard case .loggedIn(let login, _) = result else { return result }
            if let before = trigger(.beforeLogin, className: UserService.className, context: context) {
                do {
                    var asked = request(.beforeLogin, UserService.className, object: render(login.user, context), context: context)
                    asked.userId = login.user.objectId
                    _ = try await call(before, asked)
                } catch {
                    // The login is refused: the session it made must not outlive the answer.
                    try? await users.endSession(token: login.sessionToken, context: context)
                    throw error
                }
            }
            after(.afterLogin, UserService.className, object: login.user, userId: login.user.objectId, context: context)
            return result
        case .logOut:
            let userId = context.caller?.userId
            let result = try await perform(operation, context: context)
            if let afterLogout = trigger(.afterLogout, className: UserService.className, context: context) {
                var asked = request(.afterLogout, UserService.className, context: context)
                asked.userId = userId
                detach(afterLogout, asked)
            }
            return result
        default:
            return try await perform(operation, context: context)
        }
    }

    /// The fields to write: `body` with the fields the `beforeSave` trigger answered set over it.
    /// The class's `beforeSave` trigger as a revert or restore calls it, or `nil` when there is none.
    private func saveTrigger(_ className: String, context: AppContext) -> HistoryService.BeforeSave? {
        guard trigger(.beforeSave, className: className, context: context) != nil else { return nil }
        return { body, original in try await self.beforeSave(className, body, original: original, context: context) }
    }

    private func beforeSave(
        _ className: String, _ body: [String: JSONValue], original: StoredObject?, context: AppContext
    ) async throws -> [String: JSONValue] {
        guard let trigger = trigger(.beforeSave, className: className, context: context) else { return body }
        var asked = request(.beforeSave, className, object: body, context: context)
        asked.original = original.map { render($0, context) }
        guard let answer = try await call(trigger, asked), answer != .null else { return body }
        guard case .object(let changes) = answer else {
            throw BmobAPIError(.cloudCodeError, "the beforeSave trigger of \(className) answered something other than fields")
        }
        return body.merging(changes) { _, changed in changed }
    }

    /// Runs an `after…` trigger for `object`, detached.
    private func after(
        _ event: TriggerEvent, _ className: String, object: StoredObject, userId: String? = nil, context: AppContext
    ) {
        guard let trigger = trigger(event, className: className, context: context) else { return }
        var asked = request(event, className, object: render(object, context), context: context)
        if let userId { asked.userId = userId }
        detach(trigger, asked)
    }

    private func detach(_ trigger: @escaping CloudFunctions.TriggerBody, _ asked: TriggerRequest) {
        let event = asked.event
        let logger = functions.logger
        Task.detached {
            do {
                _ = try await trigger(asked)
            } catch {
                logger.error(
                    "the \(event.rawValue) trigger of \(asked.className) failed: \(error)",
                    metadata: ["requestId": asked.requestId])
            }
        }
    }

    /// The trigger for `event` on `className`: the server's Swift trigger, else the app's webhook (``WebhookClient``),
    /// whose `after…` calls are tried three times, 0.5 s and 2 s apart, when the receiver cannot be reached.
    func trigger(_ event: TriggerEvent, className: String, context: AppContext) -> CloudFunctions.TriggerBody? {
        if let swift = functions.functions.trigger(event, className: className) { return swift }
        guard let url = context.app.webhooks.triggers[className]?[event] else { return nil }
        let client = functions.webhooks
        let secret = context.app.webhooks.secret
        return { asked in
            let payload = Self.payload(asked)
            var attempt = 0
            while true {
                attempt += 1
                do {
                    let answer = try await client.call(
                        url, payload: payload, secret: secret, what: "\(event.rawValue) of \(className)")
                    if case .value(_, let value) = answer { return value }
                    return nil
                } catch let error as BmobAPIError where event.isAfter && error.code == .cloudCodeError && attempt < 3 {
                    try await Task.sleep(for: .milliseconds(attempt == 1 ? 500 : 2000))
                }
            }
        }
    }

    /// What a trigger's webhook is sent.
    static func payload(_ asked: TriggerRequest) -> JSONValue {
        var members: [String: JSONValue] = [
            "trigger": .string(asked.event.rawValue), "className": .string(asked.className),
            "user": asked.userId.map { ["objectId": .string($0)] } ?? .null, "master": .bool(asked.isMaster),
        ]
        if let object = asked.object { members["object"] = .object(object) }
        if let original = asked.original { members["original"] = .object(original) }
        if let results = asked.results { members["results"] = .array(results) }
        return .object(members)
    }

    /// Runs a `before…` trigger: its answer, or its refusal as the caller's error.
    private func call(_ trigger: CloudFunctions.TriggerBody, _ asked: TriggerRequest) async throws -> JSONValue? {
        do {
            return try await trigger(asked)
        } catch {
            let logger = functions.logger
            throw CloudFunctionService.failure(error, what: "the \(asked.event.rawValue) trigger of \(asked.className)") {
                cause in
                logger.error(
                    "the \(asked.event.rawValue) trigger of \(asked.className) failed: \(cause)",
                    metadata: ["requestId": asked.requestId])
            }
        }
    }

    private func request(
        _ event: TriggerEvent, _ className: String, object: [String: JSONValue]? = nil, context: AppContext
    ) -> TriggerRequest {
        TriggerRequest(
            event: event, className: className, object: object, userId: context.caller?.userId,
            isMaster: context.caller == .master || context.isMaster, applicationId: context.app.applicationId,
            requestId: context.trace?.requestId ?? "-",
            data: CloudData(runner: self, context: context, acting: "trigger:\(event.rawValue):\(className)"))
    }

    /// The object as stored, read as the master key (the operation itself then checks the caller's rights).
    private func stored(_ className: String, _ objectId: String, context: AppContext) async throws -> StoredObject? {
        try await ObjectService.mapStoreErrors {
            try await context.store.read { try $0.fetch(className: className, objectId: objectId) }
        }
    }

    private func render(_ object: StoredObject, _ context: AppContext) -> [String: JSONValue] {
        context.renderer.render(object)
    }
}
