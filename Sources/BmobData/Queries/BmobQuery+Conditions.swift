import BmobCore
import BmobWire
import Foundation

extension BmobQuery {
    /// Objects whose `key` equals `value` (an array field matches when it contains `value`).
    @discardableResult
    public func whereKey(_ key: String, equalTo value: Any) -> Self { constrain(key, value, FieldConstraint.equalTo) }

    /// Objects whose `key` is not `value`.
    @discardableResult
    public func whereKey(_ key: String, notEqualTo value: Any) -> Self {
        constrain(key, value, FieldConstraint.notEqualTo)
    }

    /// Objects whose `key` is less than `value`.
    @discardableResult
    public func whereKey(_ key: String, lessThan value: Any) -> Self { constrain(key, value, FieldConstraint.lessThan) }

    /// Objects whose `key` is at most `value`.
    @discardableResult
    public func whereKey(_ key: String, lessThanOrEqualTo value: Any) -> Self {
        constrain(key, value, FieldConstraint.lessThanOrEqualTo)
    }

    /// Objects whose `key` is greater than `value`.
    @discardableResult
    public func whereKey(_ key: String, greaterThan value: Any) -> Self {
        constrain(key, value, FieldConstraint.greaterThan)
    }

    /// Objects whose `key` is at least `value`.
    @discardableResult
    public func whereKey(_ key: String, greaterThanOrEqualTo value: Any) -> Self {
        constrain(key, value, FieldConstraint.greaterThanOrEqualTo)
    }

    /// Objects whose `key` is one of `values` (an array field matches when it holds any of them).
    @discardableResult
    public func whereKey(_ key: String, containedIn values: [Any]) -> Self {
        constrain(key, list: values, FieldConstraint.containedIn)
    }

    /// Objects whose `key` is none of `values`.
    @discardableResult
    public func whereKey(_ key: String, notContainedIn values: [Any]) -> Self {
        constrain(key, list: values, FieldConstraint.notContainedIn)
    }

    /// Objects whose array field `key` holds all of `values`.
    @discardableResult
    public func whereKey(_ key: String, containsAll values: [Any]) -> Self {
        constrain(key, list: values, FieldConstraint.containsAll)
    }

    /// Objects whose text field `key` matches the regular expression `pattern`.
    @discardableResult
    public func whereKey(_ key: String, matchesRegex pattern: String) -> Self {
        constrain(key, .matchesRegex(pattern: pattern, options: ""))
    }

    /// Objects whose text field `key` starts with `prefix` (taken literally).
    @discardableResult
    public func whereKey(_ key: String, startsWith prefix: String) -> Self {
        constrain(key, .matchesRegex(pattern: "^" + Self.escapeRegex(prefix), options: ""))
    }

    /// Objects whose text field `key` ends with `suffix` (taken literally).
    @discardableResult
    public func whereKey(_ key: String, endsWith suffix: String) -> Self {
        constrain(key, .matchesRegex(pattern: Self.escapeRegex(suffix) + "$", options: ""))
    }

    /// Objects whose geo point `key` lies within `kilometers` of `point`, nearest first.
    @discardableResult
    public func whereKey(_ key: String, nearGeoPoint point: BmobGeoPoint, withinKilometers kilometers: Double) -> Self {
        constrain(key, .nearSphere(point.value, maxDistanceRadians: kilometers / WhereParser.earthRadiusKilometers))
    }

    /// Objects whose geo point `key` lies within `miles` of `point`, nearest first.
    @discardableResult
    public func whereKey(_ key: String, nearGeoPoint point: BmobGeoPoint, withinMiles miles: Double) -> Self {
        constrain(key, .nearSphere(point.value, maxDistanceRadians: miles / WhereParser.earthRadiusMiles))
    }

    /// Objects whose geo point `key` is nearest to `point` first.
    @discardableResult
    public func whereKey(_ key: String, nearGeoPoint point: BmobGeoPoint) -> Self {
        constrain(key, .nearSphere(point.value, maxDistanceRadians: nil))
    }

    /// Objects whose geo point `key` lies in the box from `southwest` to `northeast`.
    @discardableResult
    public func whereKey(_ key: String, withinGeoBox southwest: BmobGeoPoint, northeast: BmobGeoPoint) -> Self {
        constrain(key, .withinBox(southwest: southwest.value, northeast: northeast.value))
    }

    /// Objects whose pointer `key` points to an object matching `query` (`$inQuery`).
    @discardableResult
    public func whereKey(_ key: String, matchesQuery query: BmobQuery) -> Self {
        let (inner, error) = query.subQuery
        return lock.withLock {
            if let error { state.record(error) }
            state.constrain(key, .matchesQuery(inner))
            return self
        }
    }

    /// Objects whose pointer `key` points to no object matching `query` (`$notInQuery`).
    @discardableResult
    public func whereKey(_ key: String, doesNotMatchQuery query: BmobQuery) -> Self {
        let (inner, error) = query.subQuery
        return lock.withLock {
            if let error { state.record(error) }
            state.constrain(key, .doesNotMatchQuery(inner))
            return self
        }
    }

    /// Objects that `object`'s relation field `key` holds (`$relatedTo`).
    @discardableResult
    public func whereRelatedTo(_ object: BmobPointer, key: String) -> Self {
        lock.withLock {
            state.relate(to: PointerValue(className: object.className, objectId: object.objectId), key: key)
            return self
        }
    }

    /// Objects that have a value for `key`.
    @discardableResult
    public func whereKeyExists(_ key: String) -> Self { constrain(key, .exists(true)) }

    /// Objects without a value for `key`.
    @discardableResult
    public func whereKeyDoesNotExist(_ key: String) -> Self { constrain(key, .exists(false)) }

    // MARK: - Helpers

    private func constrain(_ key: String, _ constraint: FieldConstraint) -> Self {
        lock.withLock {
            state.constrain(key, constraint)
            return self
        }
    }

    /// Encodes `value` as a Bmob JSON value for `make`'s constraint, or records why it cannot be.
    private func constrain(_ key: String, _ value: Any, _ make: (JSONValue) -> FieldConstraint) -> Self {
        do {
            let json = try BmobValueCoding.encode(value)
            return constrain(key, make(json))
        } catch {
            return lock.withLock {
                state.record(error)
                return self
            }
        }
    }

    /// Encodes each of `values` for a list operator (`$in`, `$nin`, `$all`), or records why one cannot be.
    private func constrain(_ key: String, list values: [Any], _ make: ([JSONValue]) -> FieldConstraint) -> Self {
        do {
            let list = try values.map { value throws(BmobError) in try BmobValueCoding.encode(value) }
            return constrain(key, make(list))
        } catch {
            return lock.withLock {
                state.record(error)
                return self
            }
        }
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
