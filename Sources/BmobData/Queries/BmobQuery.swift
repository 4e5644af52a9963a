public import Foundation
package import BmobWire
package import BmobCore

/// A query on one class: conditions, order, paging, keys, includes, statistics, and where answers come
/// from (``cachePolicy``).
///
/// Every builder method changes the query and returns it, so both styles work:
///
/// ```swift
/// let query = BmobQuery(className: "Note")
///     .whereKey("status", equalTo: 1)
///     .order(byDescending: "createdAt")
///     .limit(20)
/// let notes = try await query.find()
///
/// let scores = BmobQuery(className: "GameScore")
/// scores.whereKey("score", greaterThan: 50)
/// ```
///
/// Thread safety: the query's state is only touched while `lock` is held (see ``BmobObject`` for the rule).
public final class BmobQuery: @unchecked Sendable {
    /// The class queried.
    public let className: String

    let lock = NSLock()
    /// The `where` object: field → value (equality) or operator object; `$or` / `$and` members.
    var conditions: [String: JSONValue] = [:]
    /// A condition that could not be encoded; running the query throws it.
    var conditionError: BmobError?
    var orderKeys: [String] = []
    var limitValue: Int?
    var skipValue: Int?
    var selectedKeys: [String]?
    var includedKeys: [String] = []
    var statisticsMode = false
    var groupByKeys: [String] = []
    var groupCountValue = false
    var sumKeys: [String] = []
    var averageKeys: [String] = []
    var maxKeys: [String] = []
    var minKeys: [String] = []
    var havingCondition: JSONValue?
    var policy: BmobCachePolicy = .ignoreCache
    var cacheAge: TimeInterval = 24 * 60 * 60
    var clientValue: BmobClient = .shared

    /// A query matching every object of `className`.
    public init(className: String) {
        self.className = className
    }

    /// Where ``find()``, ``get(objectId:)``, ``count()`` and ``statistics()`` take their answers from;
    /// ``BmobCachePolicy/ignoreCache`` by default.
    public var cachePolicy: BmobCachePolicy {
        get { lock.withLock { policy } }
        set { lock.withLock { policy = newValue } }
    }

    /// How old a cached answer may be for ``BmobCachePolicy/cacheElseNetwork``, in seconds (one day by default).
    public var maxCacheAge: TimeInterval {
        get { lock.withLock { cacheAge } }
        set { lock.withLock { cacheAge = newValue } }
    }

    /// The client the query runs through; the shared one unless a test gives it another.
    package var client: BmobClient {
        get { lock.withLock { clientValue } }
        set { lock.withLock { clientValue = newValue } }
    }

    /// Objects matching all of `queries` (`$and`), or `nil` when the list is empty or mixes classes.
    public static func and(_ queries: [BmobQuery]) -> BmobQuery? {
        combine(queries, "$and")
    }

    /// Objects matching any of `queries` (`$or`), or `nil` when the list is empty or mixes classes.
    public static func or(_ queries: [BmobQuery]) -> BmobQuery? {
        combine(queries, "$or")
    }

    private static func combine(_ queries: [BmobQuery], _ name: String) -> BmobQuery? {
        guard let first = queries.first, queries.allSatisfy({ $0.className == first.className }) else { return nil }
        let combined = BmobQuery(className: first.className)
        var parts: [JSONValue] = []
        for query in queries {
            let (conditions, error) = query.lock.withLock { (query.conditions, query.conditionError) }
            if let error { combined.conditionError = error }
            parts.append(.object(conditions))
        }
        combined.conditions[name] = .array(parts)
        return combined
    }

    /// The `where` object as it will be sent.
    package var whereJSON: JSONValue {
        lock.withLock { .object(conditions) }
    }
}
