import BmobStore
package import BmobWire

/// Batches: up to 50 object operations run in order, each answered on its own. The behaviour behind REST
/// `POST /1/batch` and the native protocol's `batch`; the front doors decode the elements (``BatchItem``) and
/// encode the answers.
package struct BatchService: Sendable {
    /// The service each element runs through.
    package let objects: ObjectService
    /// The service of `_User` elements (`/1/users` paths): signup, and updates and deletes that need the
    /// user's own session.
    package let users: UserService?

    /// A batch service running elements through `objects`, and `_User` elements through `users`.
    package init(objects: ObjectService, users: UserService? = nil) {
        self.objects = objects
        self.users = users
    }

    /// Runs `items` in order. An element's own `token` replaces the request's session token for that element;
    /// one element failing does not stop the others. An element that fails with a 5xx is logged with the
    /// request id of the context's ``AppContext/trace``, and its message ends with `(request <id>)`.
    ///
    /// - Returns: one entry per element: `{"success":{…}}` with what the single operation answers, or
    ///   `{"error":{"code":…,"error":"…"}}`.
    package func run(_ items: [BatchItem], context: AppContext) async -> [JSONValue] {
        var results: [JSONValue] = []
        results.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            var itemContext = context
            if let token = item.sessionToken { itemContext.sessionToken = token }
            do {
                results.append(["success": try await run(item, context: itemContext)])
            } catch {
                // A 5xx element is logged with the request id (which its message then carries), as a whole
                // request's would be.
                let failure =
                    context.trace?.answer(for: error, route: "\(context.trace?.route ?? "batch") element \(index)")
                    ?? RequestTrace.bmobError(error)
                results.append([
                    "error": ["code": .int(Int64(failure.code.rawValue)), "error": .string(failure.message)]
                ])
            }
        }
        return results
    }

    /// Runs one element and returns what goes under `success`.
    private func run(_ item: BatchItem, context: AppContext) async throws -> JSONValue {
        if let users, let answer = try await runUser(item, users: users, context: context) { return answer }
        switch item.action {
        case .create(let className):
            let object = try await objects.create(className: className, body: item.body, context: context)
            return [
                "createdAt": .string(context.renderer.date(object.createdAt)), "objectId": .string(object.objectId),
            ]
        case .update(let className, let objectId):
            let object = try await objects.update(
                className: className, objectId: objectId, body: item.body, context: context)
            return ["updatedAt": .string(context.renderer.date(object.updatedAt))]
        case .delete(let className, let objectId):
            try await objects.delete(className: className, objectId: objectId, context: context)
            return ["msg": "ok"]
        case .get(let className, let objectId):
            return try await objects.get(
                className: className, objectId: objectId, include: [], keys: nil, context: context)
        }
    }

    /// Runs a `_User` element through the user service; `nil` for other classes and for reads.
    private func runUser(_ item: BatchItem, users: UserService, context: AppContext) async throws -> JSONValue? {
        switch item.action {
        case .create(UserService.className):
            let login = try await users.signUp(body: item.body, context: context)
            return [
                "createdAt": .string(context.renderer.date(login.user.createdAt)),
                "objectId": .string(login.user.objectId), "sessionToken": .string(login.sessionToken),
            ]
        case .update(UserService.className, let objectId):
            let user = try await users.update(userId: objectId, body: item.body, context: context)
            return ["updatedAt": .string(context.renderer.date(user.updatedAt))]
        case .delete(UserService.className, let objectId):
            try await users.delete(userId: objectId, context: context)
            return ["msg": "ok"]
        default:
            return nil
        }
    }
}
