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
/// `BmobQuery` is a handle: copies share one state, and the builder methods change it without `mutating`
/// (so `let query = …; query.whereKey(…)` works); setting ``cachePolicy`` or ``maxCacheAge`` needs a `var`.
/// Its state sits behind a lock, so a query can be built on one task and run on another.
public struct BmobQuery: Sendable {
    /// The class queried.
    public let className: String

    /// Everything the builder methods set, shared by copies of the query and read under its lock.
    let state = BmobQueryState()
    var lock: NSLock { state.lock }

    /// A query matching every object of `className`.
    public init(className: String) {
        self.className = className
    }

    /// Where ``find()``, ``get(objectId:)``, ``count()`` and ``statistics()->[[String:Any]]`` take their answers from;
    /// ``BmobCachePolicy/ignoreCache`` by default.
    public var cachePolicy: BmobCachePolicy {
        get { lock.withLock { state.policy } }
        set { lock.withLock { state.policy = newValue } }
    }

    /// How old a cached answer may be for ``BmobCachePolicy/cacheElseNetwork``, in seconds (one day by default).
    public var maxCacheAge: TimeInterval {
        get { lock.withLock { state.cacheAge } }
        set { lock.withLock { state.cacheAge = newValue } }
    }

    /// The client the query runs through; the shared one unless a test gives it another.
    package var client: BmobClient {
        get { lock.withLock { state.clientValue } }
        set { lock.withLock { state.clientValue = newValue } }
    }

    /// Objects matching all of `queries` (`$and`), or `nil` when the list is empty or mixes classes.
    public static func and(_ queries: [BmobQuery]) -> BmobQuery? {
        combine(queries) { .and($0) }
    }

    /// Objects matching any of `queries` (`$or`), or `nil` when the list is empty or mixes classes.
    public static func or(_ queries: [BmobQuery]) -> BmobQuery? {
        combine(queries) { .or($0) }
    }

    private static func combine(_ queries: [BmobQuery], _ make: ([QueryCondition]) -> QueryCondition) -> BmobQuery? {
        guard let first = queries.first, queries.allSatisfy({ $0.className == first.className }) else { return nil }
        let combined = BmobQuery(className: first.className)
        var parts: [QueryCondition] = []
        for query in queries {
            let (condition, error) = query.lock.withLock { (query.state.condition, query.state.conditionError) }
            if let error { combined.state.record(error) }
            // A query without conditions matches everything: `{}`.
            parts.append(condition ?? .and([]))
        }
        combined.state.conditionParts = [make(parts)]
        return combined
    }

    /// The class and `where` of this query as a sub-query (`$inQuery`, `$notInQuery`), and the error its
    /// conditions hold, if any.
    package var subQuery: (query: SubQuery, error: BmobError?) {
        lock.withLock { (SubQuery(className: className, condition: state.condition), state.conditionError) }
    }
}
