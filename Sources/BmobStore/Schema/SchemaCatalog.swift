import BmobWire

/// The classes a database holds and the fields the schema registry recorded for each, as a value.
///
/// A value so that the writer can take a copy per transaction and per job, throw a copy away when its job
/// or transaction rolls back, and publish it only after COMMIT.
struct SchemaCatalog: Sendable, Equatable {
    /// Fields by class; a class is present from its first write, even with no recorded fields.
    var classes: [String: [String: FieldSchema]] = [:]
    /// Class-level permissions of the classes that have them.
    var permissions: [String: JSONValue] = [:]

    init(classes: [String: [String: FieldSchema]] = [:]) {
        self.classes = classes
    }

    /// Whether the class exists (its table was created).
    func contains(_ className: String) -> Bool {
        classes[className] != nil
    }

    /// The recorded fields of a class; empty for an unknown class.
    func fields(of className: String) -> [String: FieldSchema] {
        classes[className] ?? [:]
    }

    /// Class names in ascending order.
    var classNames: [String] {
        classes.keys.sorted()
    }
}
