import BmobCore
import BmobWire
import Foundation

/// Creates, updates and deletes of any classes sent in one request (`/8/batch`, at most 50), run in order;
/// each gets its own result.
///
/// ```swift
/// let batch = BmobBatch()
/// batch.save(newNote)          // create
/// batch.save(changedNote)      // update of the changed fields
/// batch.delete(oldNote)
/// let results = try await batch.execute()
/// ```
///
/// Thread safety: the queued items are only touched while `lock` is held.
public final class BmobBatch: @unchecked Sendable {
    /// Most requests one batch may carry.
    public static let maximumCount = 50

    private enum Item {
        case save(BmobObject)
        case delete(BmobObject)
    }

    private let lock = NSLock()
    private var items: [Item] = []

    /// An empty batch.
    public init() {}

    /// Creates `object` when it has no objectId, otherwise updates its changed fields.
    public func save(_ object: BmobObject) { lock.withLock { items.append(.save(object)) } }

    /// Deletes `object` (it must have an objectId).
    public func delete(_ object: BmobObject) { lock.withLock { items.append(.delete(object)) } }

    /// The number of queued requests.
    public var count: Int { lock.withLock { items.count } }

    /// Sends the queued requests and empties the batch. Saved objects get their ids and dates.
    ///
    /// - Returns: one result per request, in order.
    /// - Throws: ``BmobError/invalidParameter(reason:)`` for more than 50 requests, an object to delete without
    ///   objectId, or a value that cannot be stored; errors of the request as a whole.
    public func execute() async throws -> [BmobBatchResult] {
        let items = lock.withLock {
            defer { self.items = [] }
            return self.items
        }
        guard !items.isEmpty else { return [] }
        guard items.count <= Self.maximumCount else {
            throw BmobError.invalidParameter(reason: "a batch holds at most \(Self.maximumCount) requests")
        }
        var requests: [JSONValue] = []
        var changes: [BmobObject.PendingChange?] = []
        for item in items {
            switch item {
            case .save(let object):
                let change = try object.pendingChange()
                var request = change.request
                request["method"] = .string(change.route)
                requests.append(.object(request))
                changes.append(change)
            case .delete(let object):
                guard let objectId = object.objectId else {
                    throw BmobError.invalidParameter(reason: "cannot delete an object without objectId")
                }
                requests.append(["method": "delete", "c": .string(object.className), "objectId": .string(objectId)])
                changes.append(nil)
            }
        }
        let answer = try await BmobClient.shared.call("batch", ["data": ["requests": .array(requests)]])
        guard let results = (answer["results"] ?? answer).arrayValue, results.count == items.count else {
            throw BmobError.jsonParsingFailed
        }
        var output: [BmobBatchResult] = []
        for (index, result) in results.enumerated() {
            if let error = result["error"] {
                let code = Int(error["code"]?.int64Value ?? 0)
                output.append(.failure(BmobError.server(code: code, message: error["error"]?.stringValue ?? "")))
                continue
            }
            let success = result["success"] ?? .object([:])
            if case .save(let object) = items[index], let change = changes[index] {
                object.finishSave(change, answer: success)
            }
            output.append(.success((success.objectValue ?? [:]).mapValues { Self.sendable($0) }))
        }
        return output
    }

    private static func sendable(_ json: JSONValue) -> any Sendable {
        switch json {
        case .null: return Optional<String>.none
        case .bool(let value): return value
        case .int(let value): return Int(value)
        case .double(let value): return value
        case .string(let value): return value
        case .array(let values): return values.map(sendable)
        case .object(let members): return members.mapValues(sendable)
        }
    }
}
