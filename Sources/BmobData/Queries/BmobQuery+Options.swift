import BmobCore
import BmobWire
import Foundation

extension BmobQuery {
    /// Sorts by `key`, smallest first, replacing any order set before.
    @discardableResult
    public func order(byAscending key: String) -> Self { setOrder([OrderKey(path: key)]) }

    /// Sorts by `key`, largest first, replacing any order set before.
    @discardableResult
    public func order(byDescending key: String) -> Self { setOrder([OrderKey(path: key, descending: true)]) }

    /// Adds `key`, smallest first, after the sort keys already set.
    @discardableResult
    public func addAscendingOrder(_ key: String) -> Self { appendOrder(OrderKey(path: key)) }

    /// Adds `key`, largest first, after the sort keys already set.
    @discardableResult
    public func addDescendingOrder(_ key: String) -> Self { appendOrder(OrderKey(path: key, descending: true)) }

    /// At most `count` results (the server's default is 100, its maximum 1000).
    @discardableResult
    public func limit(_ count: Int) -> Self {
        lock.withLock { state.limitValue = Swift.max(0, count) }
        return self
    }

    /// Skips the first `count` results.
    @discardableResult
    public func skip(_ count: Int) -> Self {
        lock.withLock { state.skipValue = Swift.max(0, count) }
        return self
    }

    /// Returns only these fields (and `objectId`, `createdAt`, `updatedAt`). In a ``statistics()->BmobQuery`` query
    /// without an aggregate function, the fields to aggregate.
    @discardableResult
    public func selectKeys(_ keys: [String]) -> Self {
        lock.withLock { state.selectedKeys = keys }
        return self
    }

    /// Returns the object a pointer field points to instead of the pointer; dots reach into included
    /// objects (`"post.author"`).
    @discardableResult
    public func includeKey(_ key: String) -> Self {
        lock.withLock { if !state.includedKeys.contains(key) { state.includedKeys.append(key) } }
        return self
    }

    // MARK: - Statistics

    /// Makes this a statistics query, answered by the asynchronous ``statistics()``.
    ///
    /// Without ``sum(_:)``, ``average(_:)``, ``max(_:)`` or ``min(_:)``, the selected keys
    /// (``selectKeys(_:)``) are summed, averaged and their maximum and minimum taken, and each group counted.
    @discardableResult
    public func statistics() -> Self {
        lock.withLock { state.statisticsMode = true }
        return self
    }

    /// Groups a statistics query by these fields.
    @discardableResult
    public func groupBy(_ keys: [String]) -> Self {
        lock.withLock {
            state.statisticsMode = true
            state.groupByKeys = keys
        }
        return self
    }

    /// Adds the number of objects of each group (`_count`).
    @discardableResult
    public func groupCount(_ enabled: Bool = true) -> Self {
        lock.withLock {
            state.statisticsMode = true
            state.groupCountValue = enabled
        }
        return self
    }

    /// Sums of these number fields (`_sum<Field>`).
    @discardableResult
    public func sum(_ keys: [String]) -> Self { aggregate(keys, \.sumKeys) }

    /// Averages of these number fields (`_avg<Field>`).
    @discardableResult
    public func average(_ keys: [String]) -> Self { aggregate(keys, \.averageKeys) }

    /// Maximums of these fields (`_max<Field>`).
    @discardableResult
    public func max(_ keys: [String]) -> Self { aggregate(keys, \.maxKeys) }

    /// Minimums of these fields (`_min<Field>`).
    @discardableResult
    public func min(_ keys: [String]) -> Self { aggregate(keys, \.minKeys) }

    /// Keeps only groups matching `condition`, written like `where` over the result names
    /// (`["_sumScore": ["$gt": 100]]`).
    ///
    /// A condition that is not a valid `having` makes the statistics query throw
    /// ``BmobError/invalidParameter(reason:)``.
    @discardableResult
    public func having(_ condition: [String: Any]) -> Self {
        let parsed: Result<QueryCondition?, BmobError>
        do {
            let json = try BmobValueCoding.encode(condition)
            do throws(QueryParseError) {
                parsed = .success(try WhereParser.parseHaving(json))
            } catch {
                parsed = .failure(.invalidParameter(reason: "having: \(error.description)"))
            }
        } catch {
            parsed = .failure(error)
        }
        lock.withLock {
            state.statisticsMode = true
            switch parsed {
            case .success(let having): state.havingCondition = having
            case .failure(let error): state.record(error)
            }
        }
        return self
    }

    private func aggregate(_ keys: [String], _ path: ReferenceWritableKeyPath<BmobQueryState, [String]>) -> Self {
        lock.withLock {
            state.statisticsMode = true
            state[keyPath: path] = keys
        }
        return self
    }

    private func setOrder(_ keys: [OrderKey]) -> Self {
        lock.withLock { state.order = keys }
        return self
    }

    private func appendOrder(_ key: OrderKey) -> Self {
        lock.withLock { state.order.append(key) }
        return self
    }
}
