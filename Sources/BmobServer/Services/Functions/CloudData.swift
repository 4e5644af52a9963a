import BmobStore
public import BmobWire

/// The app's data as a cloud function or trigger sees it: by default as its caller (ACL, class permissions and
/// roles apply, as if the client had asked itself), or as the master key with ``asMaster``.
///
/// Every call runs through the same operations as a client's request, so triggers fire for them too (a trigger
/// that writes to its own class runs again). Failures throw ``CloudFunctionError`` with Bmob's code (101 for an
/// object the caller may not see, …); a function that lets one escape answers the client with that code.
public struct CloudData: Sendable {
    package let runner: OperationRunner
    package let context: AppContext

    /// The data as `context`'s caller sees it, for the function or trigger `acting` (recorded in the journal).
    package init(runner: OperationRunner, context: AppContext, acting: String) {
        self.runner = runner
        var context = context
        context.acting = acting
        self.context = context
    }

    private init(runner: OperationRunner, actingContext: AppContext) {
        self.runner = runner
        self.context = actingContext
    }

    /// The same data with the master key: no ACL or class permission applies.
    public var asMaster: CloudData {
        var master = context
        master.isMaster = true
        master.sessionToken = nil
        master.caller = .master
        return CloudData(runner: runner, actingContext: master)
    }

    /// The object `objectId` of `className` with its system fields.
    public func get(_ className: String, objectId: String) async throws -> [String: JSONValue] {
        let result = try await run(.get(className: className, objectId: objectId, include: [], keys: nil))
        switch result {
        case .object(.object(let object)): return object
        case .objectJSON(let bytes): return (try? JSONParser.parse(bytes))?.objectValue ?? [:]
        default: return [:]
        }
    }

    /// The objects of `className` that match `where` (a Bmob `where` object), in `order` (`"-score,name"`), at
    /// most `limit` (100 by default, 1000 at most) after skipping `skip`.
    public func find(
        _ className: String, where condition: JSONValue? = nil, order: String? = nil, limit: Int? = nil, skip: Int? = nil
    ) async throws -> [[String: JSONValue]] {
        var parameters: [(name: String, value: String)] = []
        if let condition { parameters.append(("where", condition.jsonString)) }
        if let order { parameters.append(("order", order)) }
        if let limit { parameters.append(("limit", String(limit))) }
        if let skip { parameters.append(("skip", String(skip))) }
        let query = try mapped { () throws(BmobAPIError) in try QueryRoutes.decode(className: className, parameters) }
        guard case .found(let bytes, _) = try await run(.find(query)),
            case .array(let results)? = try? JSONParser.parse(bytes)["results"]
        else { return [] }
        return results.compactMap(\.objectValue)
    }

    /// Creates an object of `className` and answers its objectId.
    @discardableResult
    public func create(_ className: String, _ fields: [String: JSONValue]) async throws -> String {
        guard case .created(let object) = try await run(.create(className: className, body: fields)) else { return "" }
        return object.objectId
    }

    /// Sets `fields` (values or Bmob operations such as `{"__op": "Increment", "amount": 1}`) on an object.
    public func update(_ className: String, objectId: String, _ fields: [String: JSONValue]) async throws {
        _ = try await run(.update(className: className, objectId: objectId, body: fields))
    }

    /// Deletes an object.
    public func delete(_ className: String, objectId: String) async throws {
        _ = try await run(.delete(className: className, objectId: objectId))
    }

    private func run(_ operation: Operation) async throws -> OperationResult {
        do {
            return try await runner.run(operation, context: context)
        } catch let error as BmobAPIError {
            throw CloudFunctionError(code: error.code.rawValue, message: error.message)
        }
    }

    private func mapped<T>(_ body: () throws(BmobAPIError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CloudFunctionError(code: error.code.rawValue, message: error.message)
        }
    }
}
