import BmobStore
public import BmobWire

/// A sync function's reads: objects of the app as its caller may see them (ACLs, class permissions, `_User`
/// privacy), inside one consistent snapshot, recording what was read so that live queries re-run only when a
/// commit touches it (``SyncReadSet``). Valid only while the function runs.
///
/// Failures throw ``SyncFunctionError`` with Bmob's code in its data (`{"code": 101}` …).
public class SyncReader {
    let transaction: any StoreReadTransaction
    let scope: AccessScope
    let renderer: ObjectRenderer
    /// What the function read so far.
    package private(set) var readSet = SyncReadSet()
    private var reads = 0

    /// The most reads one run of a function may make, so that a function cannot loop over the database.
    package static let maximumReads = 1000

    init(transaction: any StoreReadTransaction, scope: AccessScope, renderer: ObjectRenderer) {
        self.transaction = transaction
        self.scope = scope
        self.renderer = renderer
    }

    /// The object `objectId` of `className`, or `nil` when it does not exist or the caller may not read it.
    public func get(_ className: String, objectId: String) throws -> [String: JSONValue]? {
        try count()
        readSet.readObject(className, objectId)
        return try Self.mapped {
            try ObjectService.validateClassName(className)
            try ClassPermissions.check(.get, className: className, scope: scope, transaction: transaction)
            guard let object = try transaction.fetch(className: className, objectId: objectId), scope.canRead(object.acl)
            else { return nil }
            return renderer.render(object)
        }
    }

    /// The objects of `className` that match `where` (a Bmob `where` object, sub-queries included), in `order`
    /// (`"-score,name"`), at most `limit` (100 by default, 1,000 at most) after skipping `skip`.
    public func list(
        _ className: String, where condition: JSONValue? = nil, order: String? = nil, limit: Int? = nil, skip: Int? = nil
    ) throws -> [[String: JSONValue]] {
        try count()
        var members: [String: JSONValue] = [:]
        if let condition { members["where"] = condition }
        if let order { members["order"] = .string(order) }
        if let limit { members["limit"] = .int(Int64(limit)) }
        if let skip { members["skip"] = .int(Int64(skip)) }
        readSet.readClass(className, where: condition)
        if let condition { Self.namedClasses(in: condition, into: &readSet) }
        return try Self.mapped {
            var query: FindQuery
            do throws(QueryParseError) {
                query = try FindQueryDecoder.decode(className: className, json: .object(members))
            } catch {
                throw BmobAPIError(query: error)
            }
            try ObjectService.validateClassName(className)
            query.readers = scope.readers
            let privacy = renderer.privacy ?? UserPrivacy(protectedFields: [], viewer: scope)
            try QueryAuthorization.check(query, scope: scope, privacy: privacy, transaction: transaction)
            guard query.limit > 0 else { return [] }
            return try transaction.find(query).map { renderer.render($0) }
        }
    }

    /// Every class a condition names (`$inQuery`, `$select`, `$relatedTo` …): sub-queries read those classes too.
    private static func namedClasses(in value: JSONValue, into readSet: inout SyncReadSet) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if key == "className", let name = member.stringValue { readSet.readClass(name) }
                namedClasses(in: member, into: &readSet)
            }
        case .array(let elements):
            for element in elements { namedClasses(in: element, into: &readSet) }
        default:
            break
        }
    }

    private func count() throws {
        reads += 1
        guard reads <= Self.maximumReads else {
            throw SyncFunctionError("a function may read at most \(Self.maximumReads) times a run", data: ["code": 107])
        }
    }

    /// Runs `body`, turning Bmob and store errors into ``SyncFunctionError``s with the code in their data.
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BmobAPIError {
            throw SyncFunctionError(error.message, data: ["code": .int(Int64(error.code.rawValue))])
        } catch let error as StoreError {
            let api = BmobAPIError(store: error)
            throw SyncFunctionError(api.message, data: ["code": .int(Int64(api.code.rawValue))])
        }
    }
}
