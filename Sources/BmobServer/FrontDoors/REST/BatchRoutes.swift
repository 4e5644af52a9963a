import BmobHTTP
import BmobStore
package import BmobWire

/// REST `POST /1/batch`: up to 50 object requests run in order, each answered `{"success":…}` or
/// `{"error":{"code","error"}}` in a JSON array.
package enum BatchRoutes {
    /// Bmob's limit on requests in one batch (114 beyond it).
    package static let maximumRequests = 50

    package static func register(in router: inout BmobRouter, objects: ObjectService) {
        router.app(.post, "/1/batch") { request, context in
            let body = try request.jsonObjectBody()
            guard let items = body["requests"]?.arrayValue else {
                throw BmobAPIError(.batchNotArray, "requests must be an array")
            }
            guard items.count <= maximumRequests else {
                throw BmobAPIError(.batchTooLarge, "too many requests in one batch (at most \(maximumRequests))")
            }
            var operations: [BatchOperation] = []
            for (index, item) in items.enumerated() {
                operations.append(try BatchOperation(item, index: index))
            }
            var results: [JSONValue] = []
            for operation in operations {
                var itemContext = context
                if let token = operation.sessionToken { itemContext.sessionToken = token }
                do {
                    results.append(["success": try await operation.run(objects: objects, context: itemContext)])
                } catch let error as BmobAPIError {
                    results.append(["error": ["code": .int(Int64(error.code.rawValue)), "error": .string(error.message)]])
                }
            }
            return .json(.array(results))
        }
    }
}

/// One element of a batch: `{"method", "path", "body"?, "token"?}`. Methods match in any case (JS sends
/// `post`), paths are `/1/classes/<C>[/<id>]`.
package struct BatchOperation: Sendable {
    package enum Action: Sendable {
        case create(className: String)
        case update(className: String, objectId: String)
        case delete(className: String, objectId: String)
        case get(className: String, objectId: String)
    }

    package var action: Action
    package var body: [String: JSONValue]
    package var sessionToken: String?

    /// - Throws: ``BmobAPIError`` 113 for a malformed element.
    package init(_ item: JSONValue, index: Int) throws(BmobAPIError) {
        guard let method = item["method"]?.stringValue?.uppercased(), let path = item["path"]?.stringValue else {
            throw BmobAPIError(.invalidBatchElement, "request \(index) needs a method and a path")
        }
        var segments = path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/").map(String.init) } ?? []
        guard segments.count >= 3, segments.count <= 4, segments[0] == "1", segments[1] == "classes" else {
            throw BmobAPIError(.invalidBatchElement, "request \(index) has an unsupported path: \(path)")
        }
        segments = segments.map { QueryString.decode($0, plusIsSpace: false) }
        let className = segments[2]
        let objectId = segments.count == 4 ? segments[3] : nil
        switch (method, objectId) {
        case ("POST", nil): action = .create(className: className)
        case ("PUT", let id?): action = .update(className: className, objectId: id)
        case ("DELETE", let id?): action = .delete(className: className, objectId: id)
        case ("GET", let id?): action = .get(className: className, objectId: id)
        default:
            throw BmobAPIError(.invalidBatchElement, "request \(index): \(method) is not allowed on \(path)")
        }
        switch item["body"] {
        case nil, .null?: body = [:]
        case .object(let members)?: body = members
        default: throw BmobAPIError(.invalidBatchElement, "request \(index) has a body that is not an object")
        }
        sessionToken = item["token"]?.stringValue
    }

    /// Runs the element and returns what goes under `success`.
    package func run(objects: ObjectService, context: AppContext) async throws -> JSONValue {
        do {
            switch action {
            case .create(let className):
                let object = try await objects.create(className: className, body: body, context: context)
                return ["createdAt": .string(context.renderer.date(object.createdAt)), "objectId": .string(object.objectId)]
            case .update(let className, let objectId):
                let object = try await objects.update(className: className, objectId: objectId, body: body, context: context)
                return ["updatedAt": .string(context.renderer.date(object.updatedAt))]
            case .delete(let className, let objectId):
                try await objects.delete(className: className, objectId: objectId, context: context)
                return ["msg": "ok"]
            case .get(let className, let objectId):
                return try await objects.get(className: className, objectId: objectId, include: [], keys: nil, context: context)
            }
        } catch let error as BmobAPIError {
            throw error
        } catch {
            throw BmobAPIError(.internalError, "internal server error", status: .internalServerError)
        }
    }
}
