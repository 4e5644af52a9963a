import BmobStore
package import BmobWire

/// The functions every class has, so that a plain server serves `OnebaseClient`s with no code of its own:
/// `<Class>:list` (`where`, `order`, `limit`, `skip`, as Bmob queries), `<Class>:get` (`objectId`),
/// `<Class>:add` (the new object's fields; answers its objectId), `<Class>:update` (`objectId` and the fields to
/// set; answers `null`) and `<Class>:remove` (`objectId`; answers `null`).
///
/// Lists and gets read through ``SyncReader`` (the caller's ACLs and class permissions, live); the writes run as
/// the ordinary create, update and delete operations, so class permissions, ACLs, schema rules and cloud
/// triggers apply exactly as to a client's REST call.
package struct SyncBuiltins: Sendable {
    /// What the function does.
    package enum Verb: String, Sendable {
        case list, get, add, update, remove
    }

    /// The class it works on.
    package let className: String
    package let verb: Verb

    /// The built-in function `path` names, if it names one: a valid class name and a known verb.
    package init?(_ path: SyncFunctionPath) {
        guard let verb = Verb(rawValue: String(path.export)) else { return nil }
        let className = String(path.module)
        guard (try? ObjectService.validateClassName(className)) != nil else { return nil }
        self.className = className
        self.verb = verb
    }

    package var kind: SyncFunctionKind {
        switch verb {
        case .list, .get: .query
        case .add, .update, .remove: .mutation
        }
    }

    /// Why `arguments` do not suit the function, or `nil` when they do.
    package func mismatch(_ arguments: [String: JSONValue]) -> String? {
        switch verb {
        case .list:
            return SyncArgument.mismatch(
                arguments,
                ["where": .optional(.any), "order": .optional(.string), "limit": .optional(.int), "skip": .optional(.int)],
                at: "args")
        case .get, .remove:
            return SyncArgument.mismatch(arguments, ["objectId": .id], at: "args")
        case .update:
            return SyncArgument.id.mismatch(arguments["objectId"], at: "args.objectId")
        case .add:
            return nil
        }
    }

    /// The body of `list` and `get`.
    package var query: SyncFunctions.QueryBody {
        let className = className
        switch verb {
        case .get:
            return { context, arguments in
                guard let id = arguments["objectId"]?.stringValue,
                    let object = try context.db.get(className, objectId: id)
                else { return .null }
                return .object(object)
            }
        default:
            return { context, arguments in
                let found = try context.db.list(
                    className, where: arguments["where"].flatMap { $0 == .null ? nil : $0 },
                    order: arguments["order"]?.stringValue, limit: arguments["limit"]?.int64Value.map { Int(clamping: $0) },
                    skip: arguments["skip"]?.int64Value.map { Int(clamping: $0) })
                return .array(found.map(JSONValue.object))
            }
        }
    }

    /// Runs `add`, `update` or `remove` as the ordinary operation.
    func mutate(_ arguments: [String: JSONValue], operations: OperationRunner, context: AppContext) async throws -> JSONValue {
        switch verb {
        case .add:
            guard case .created(let object) = try await operations.run(.create(className: className, body: arguments), context: context)
            else { return .null }
            return .string(object.objectId)
        case .update:
            var fields = arguments
            let objectId = fields.removeValue(forKey: "objectId")?.stringValue ?? ""
            _ = try await operations.run(.update(className: className, objectId: objectId, body: fields), context: context)
            return .null
        case .remove:
            let objectId = arguments["objectId"]?.stringValue ?? ""
            _ = try await operations.run(.delete(className: className, objectId: objectId), context: context)
            return .null
        case .list, .get:
            return .null
        }
    }
}
