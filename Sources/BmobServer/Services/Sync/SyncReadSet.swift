package import BmobWire

/// What a query read, so that a commit re-runs exactly the live queries it can affect: whole classes (a list
/// without usable conditions, and every class its sub-queries name), parts of classes (a list whose conditions hold
/// plain equalities: only objects that match them, before or after a change, can change its results), and single
/// objects (a get by id).
///
/// A change of `_Role` touches every read set, since roles decide what every caller may read; a class-wide change
/// (no object) touches every read of its class.
package struct SyncReadSet: Sendable, Hashable {
    /// Classes read whole.
    package private(set) var classes: Set<String> = []
    /// Classes read through equality conditions: an object is in such a read when it has each field equal to its
    /// value.
    package private(set) var filtered: [String: [[String: JSONValue]]] = [:]
    /// Objects read by id, by class.
    package private(set) var objects: [String: Set<String>] = [:]

    /// Nothing read.
    package init() {}

    /// Records a read of the whole class.
    package mutating func readClass(_ className: String) {
        classes.insert(className)
    }

    /// Records a read of the objects of `className` that match `condition` (a Bmob `where` object): the class
    /// narrowed by its top-level equalities with plain values, or the whole class when there are none.
    package mutating func readClass(_ className: String, where condition: JSONValue?) {
        var equalities: [String: JSONValue] = [:]
        for (field, value) in condition?.objectValue ?? [:] where Self.isFilterable(field, value) {
            equalities[field] = value
        }
        if equalities.isEmpty {
            readClass(className)
        } else if filtered[className]?.contains(equalities) != true {
            filtered[className, default: []].append(equalities)
        }
    }

    /// Records a read of one object.
    package mutating func readObject(_ className: String, _ objectId: String) {
        objects[className, default: []].insert(objectId)
    }

    /// Whether a change of `objectId` (`nil`: class-wide) in `className`, from `before` to `after` (stored form,
    /// ``BmobStore/StoredObject/json``), can change what was read.
    package func isTouched(className: String, objectId: String?, before: JSONValue? = nil, after: JSONValue? = nil) -> Bool {
        if className == "_Role" || classes.contains(className) { return true }
        if let filters = filtered[className] {
            if objectId == nil || (before == nil && after == nil) { return true }
            for equalities in filters where Self.matches(before, equalities) || Self.matches(after, equalities) {
                return true
            }
        }
        guard let ids = objects[className] else { return false }
        guard let objectId else { return true }
        return ids.contains(objectId)
    }

    /// A top-level condition `field: value` that selects objects by plain equality: a scalar value (no operator
    /// object) on an ordinary field (no dot path, no system date).
    private static func isFilterable(_ field: String, _ value: JSONValue) -> Bool {
        guard !field.hasPrefix("$"), !field.contains("."), field != "createdAt", field != "updatedAt", field != "ACL"
        else { return false }
        switch value {
        case .string, .int, .double, .bool: return true
        default: return false
        }
    }

    /// Whether `object` may match every equality: a field holding an array may contain the value (Bmob's equality
    /// on arrays), so it counts as a match.
    private static func matches(_ object: JSONValue?, _ equalities: [String: JSONValue]) -> Bool {
        guard let members = object?.objectValue else { return false }
        for (field, wanted) in equalities {
            guard let stored = members[field] else { return false }
            switch (stored, wanted) {
            case (.array, _):
                continue
            case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
                if Double(a) != b { return false }
            default:
                if stored != wanted { return false }
            }
        }
        return true
    }
}
