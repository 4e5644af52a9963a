import BmobCore
import BmobWire
import Foundation

extension BmobQuery {
    /// Objects whose `key` equals `value` (an array field matches when it contains `value`).
    @discardableResult
    public func whereKey(_ key: String, equalTo value: Any) -> Self {
        encode(value) { json in
            if let existing = state.conditions[key], Self.isOperatorObject(existing) {
                addOperator(key, "$eq", json)
            } else {
                state.conditions[key] = json
            }
        }
    }

    /// Objects whose `key` is not `value`.
    @discardableResult
    public func whereKey(_ key: String, notEqualTo value: Any) -> Self { constrain(key, "$ne", value) }

    /// Objects whose `key` is less than `value`.
    @discardableResult
    public func whereKey(_ key: String, lessThan value: Any) -> Self { constrain(key, "$lt", value) }

    /// Objects whose `key` is at most `value`.
    @discardableResult
    public func whereKey(_ key: String, lessThanOrEqualTo value: Any) -> Self { constrain(key, "$lte", value) }

    /// Objects whose `key` is greater than `value`.
    @discardableResult
    public func whereKey(_ key: String, greaterThan value: Any) -> Self { constrain(key, "$gt", value) }

    /// Objects whose `key` is at least `value`.
    @discardableResult
    public func whereKey(_ key: String, greaterThanOrEqualTo value: Any) -> Self { constrain(key, "$gte", value) }

    /// Objects whose `key` is one of `values` (an array field matches when it holds any of them).
    @discardableResult
    public func whereKey(_ key: String, containedIn values: [Any]) -> Self { constrain(key, "$in", values) }

    /// Objects whose `key` is none of `values`.
    @discardableResult
    public func whereKey(_ key: String, notContainedIn values: [Any]) -> Self { constrain(key, "$nin", values) }

    /// Objects whose array field `key` holds all of `values`.
    @discardableResult
    public func whereKey(_ key: String, containsAll values: [Any]) -> Self { constrain(key, "$all", values) }

    /// Objects whose text field `key` matches the regular expression `pattern`.
    @discardableResult
    public func whereKey(_ key: String, matchesRegex pattern: String) -> Self { constrain(key, "$regex", pattern) }

    /// Objects whose text field `key` starts with `prefix` (taken literally).
    @discardableResult
    public func whereKey(_ key: String, startsWith prefix: String) -> Self {
        constrain(key, "$regex", "^" + Self.escapeRegex(prefix))
    }

    /// Objects whose text field `key` ends with `suffix` (taken literally).
    @discardableResult
    public func whereKey(_ key: String, endsWith suffix: String) -> Self {
        constrain(key, "$regex", Self.escapeRegex(suffix) + "$")
    }

    /// Objects whose geo point `key` lies within `kilometers` of `point`, nearest first.
    @discardableResult
    public func whereKey(_ key: String, nearGeoPoint point: BmobGeoPoint, withinKilometers kilometers: Double) -> Self {
        near(key, point, "$maxDistanceInKilometers", kilometers)
    }

    /// Objects whose geo point `key` lies within `miles` of `point`, nearest first.
    @discardableResult
    public func whereKey(_ key: String, nearGeoPoint point: BmobGeoPoint, withinMiles miles: Double) -> Self {
        near(key, point, "$maxDistanceInMiles", miles)
    }

    /// Objects whose geo point `key` is nearest to `point` first.
    @discardableResult
    public func whereKey(_ key: String, nearGeoPoint point: BmobGeoPoint) -> Self {
        lock.withLock { addOperator(key, "$nearSphere", point.bmobJSON) }
        return self
    }

    /// Objects whose geo point `key` lies in the box from `southwest` to `northeast`.
    @discardableResult
    public func whereKey(_ key: String, withinGeoBox southwest: BmobGeoPoint, northeast: BmobGeoPoint) -> Self {
        lock.withLock {
            addOperator(key, "$within", ["$box": [southwest.bmobJSON, northeast.bmobJSON]])
        }
        return self
    }

    /// Objects whose pointer `key` points to an object matching `query` (`$inQuery`).
    @discardableResult
    public func whereKey(_ key: String, matchesQuery query: BmobQuery) -> Self {
        let inner: JSONValue = ["where": query.whereJSON, "className": .string(query.className)]
        lock.withLock { addOperator(key, "$inQuery", inner) }
        return self
    }

    /// Objects whose pointer `key` points to no object matching `query` (`$notInQuery`).
    @discardableResult
    public func whereKey(_ key: String, doesNotMatchQuery query: BmobQuery) -> Self {
        let inner: JSONValue = ["where": query.whereJSON, "className": .string(query.className)]
        lock.withLock { addOperator(key, "$notInQuery", inner) }
        return self
    }

    /// Objects that `object`'s relation field `key` holds (`$relatedTo`).
    @discardableResult
    public func whereRelatedTo(_ object: BmobPointer, key: String) -> Self {
        lock.withLock { state.conditions["$relatedTo"] = ["object": object.bmobJSON, "key": .string(key)] }
        return self
    }

    /// Objects that have a value for `key`.
    @discardableResult
    public func whereKeyExists(_ key: String) -> Self { constrain(key, "$exists", true) }

    /// Objects without a value for `key`.
    @discardableResult
    public func whereKeyDoesNotExist(_ key: String) -> Self { constrain(key, "$exists", false) }

    // MARK: - Helpers

    private func near(_ key: String, _ point: BmobGeoPoint, _ limitOperator: String, _ limit: Double) -> Self {
        lock.withLock {
            addOperator(key, "$nearSphere", point.bmobJSON)
            addOperator(key, limitOperator, .double(limit))
        }
        return self
    }

    private func constrain(_ key: String, _ name: String, _ value: Any) -> Self {
        encode(value) { json in addOperator(key, name, json) }
    }

    private func encode(_ value: Any, _ apply: (JSONValue) -> Void) -> Self {
        do {
            let json = try BmobValueCoding.encode(value)
            lock.withLock { apply(json) }
        } catch {
            lock.withLock { if state.conditionError == nil { state.conditionError = error } }
        }
        return self
    }

    /// Adds `name: value` to `key`'s operator object; an equality already there becomes `$eq`. Call with
    /// `lock` held.
    func addOperator(_ key: String, _ name: String, _ value: JSONValue) {
        var operators: [String: JSONValue] = [:]
        if let existing = state.conditions[key] {
            if Self.isOperatorObject(existing), let members = existing.objectValue {
                operators = members
            } else {
                operators["$eq"] = existing
            }
        }
        operators[name] = value
        state.conditions[key] = .object(operators)
    }

    static func isOperatorObject(_ value: JSONValue) -> Bool {
        guard let members = value.objectValue, !members.isEmpty else { return false }
        return members.keys.allSatisfy { $0.hasPrefix("$") }
    }

    /// `text` with the regular-expression metacharacters escaped.
    static func escapeRegex(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}/".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
