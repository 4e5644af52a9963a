/// What a query read, so that a commit re-runs exactly the live queries it can affect: whole classes (a list, and
/// every class its conditions' sub-queries name) and single objects (a get by id).
///
/// A change touches a read set when it is in a whole class read, or is the object read by id; a change of `_Role`
/// touches every read set, since roles decide what every caller may read.
package struct SyncReadSet: Sendable, Hashable {
    /// Classes read whole.
    package private(set) var classes: Set<String> = []
    /// Objects read by id, by class.
    package private(set) var objects: [String: Set<String>] = [:]

    /// Nothing read.
    package init() {}

    /// Records a read of the whole class.
    package mutating func readClass(_ className: String) {
        classes.insert(className)
    }

    /// Records a read of one object.
    package mutating func readObject(_ className: String, _ objectId: String) {
        objects[className, default: []].insert(objectId)
    }

    /// Adds another read set.
    package mutating func formUnion(_ other: SyncReadSet) {
        classes.formUnion(other.classes)
        for (className, ids) in other.objects { objects[className, default: []].formUnion(ids) }
    }

    /// Whether a change of `objectId` (`nil`: class-wide) in `className` can change what was read.
    package func isTouched(className: String, objectId: String?) -> Bool {
        if className == "_Role" || classes.contains(className) { return true }
        guard let ids = objects[className] else { return false }
        guard let objectId else { return true }
        return ids.contains(objectId)
    }
}
