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

    let state = BmobQueryState()
    var lock: NSLock { state.lock }
    var conditions: [String: JSONValue] {
        get { state.conditions }
        nonmutating set { state.conditions = newValue }
    }
    var conditionError: BmobError? {
        get { state.conditionError }
        nonmutating set { state.conditionError = newValue }
    }
    var orderKeys: [String] {
        get { state.orderKeys }
        nonmutating set { state.orderKeys = newValue }
    }
    var limitValue: Int? {
        get { state.limitValue }
        nonmutating set { state.limitValue = newValue }
    }
    var skipValue: Int? {
        get { state.skipValue }
        nonmutating set { state.skipValue = newValue }
    }
    var selectedKeys: [String]? {
        get { state.selectedKeys }
        nonmutating set { state.selectedKeys = newValue }
    }
    var includedKeys: [String] {
        get { state.includedKeys }
        nonmutating set { state.includedKeys = newValue }
    }
    var statisticsMode: Bool {
        get { state.statisticsMode }
        nonmutating set { state.statisticsMode = newValue }
    }
    var groupByKeys: [String] {
        get { state.groupByKeys }
        nonmutating set { state.groupByKeys = newValue }
    }
    var groupCountValue: Bool {
        get { state.groupCountValue }
        nonmutating set { state.groupCountValue = newValue }
    }
    var sumKeys: [String] {
        get { state.sumKeys }
        nonmutating set { state.sumKeys = newValue }
    }
    var averageKeys: [String] {
        get { state.averageKeys }
        nonmutating set { state.averageKeys = newValue }
    }
    var maxKeys: [String] {
        get { state.maxKeys }
        nonmutating set { state.maxKeys = newValue }
    }
    var minKeys: [String] {
        get { state.minKeys }
        nonmutating set { state.minKeys = newValue }
    }
    var havingCondition: JSONValue? {
        get { state.havingCondition }
        nonmutating set { state.havingCondition = newValue }
    }
    var policy: BmobCachePolicy {
        get { state.policy }
        nonmutating set { state.policy = newValue }
    }
    var cacheAge: TimeInterval {
        get { state.cacheAge }
        nonmutating set { state.cacheAge = newValue }
    }
    var clientValue: BmobClient {
        get { state.clientValue }
        nonmutating set { state.clientValue = newValue }
    }

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
