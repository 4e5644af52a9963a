/// What a journal entry records. Stored by its raw value; unknown values read back as-is, so a newer server's
/// operations do not break an older reader, and a reader that only follows objects (the realtime feed) skips
/// the operations it does not know.
package struct JournalOperation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package var description: String { rawValue }

    /// An object was inserted: `before` is `nil`, `after` the new object.
    package static let create = Self(rawValue: "create")
    /// An object was replaced: `before` and `after` are the whole object.
    package static let update = Self(rawValue: "update")
    /// An object was deleted: `before` is the object, `after` is `nil`.
    package static let delete = Self(rawValue: "delete")
    /// A class was dropped, after the entries of everything it removed (``dropClassObject``,
    /// ``removeRelation``): no objectId; `before` is the class's last schema (``StoredClassSchema/json``),
    /// `after` is `nil`.
    package static let dropClass = Self(rawValue: "dropClass")
    /// An object removed because its class was dropped: `before` is the object, `after` is `nil`. Unlike
    /// ``delete`` it announces no deletion of its own: the ``dropClass`` entry that follows does.
    package static let dropClassObject = Self(rawValue: "dropClassObject")
    /// A class's schema changed: it was created, fields were recorded or removed, or its permissions or indexes
    /// changed. No objectId; `before` and `after` are the class's schema (``StoredClassSchema/json``) around the
    /// change, `before` `nil` when the change created the class.
    package static let schema = Self(rawValue: "schema")
    /// Members were added to a relation of the entry's object: `after` holds the relation key and the targets
    /// added (``JournalRelationChange/json``), `before` is `nil`.
    package static let addRelation = Self(rawValue: "addRelation")
    /// Members were removed from a relation of the entry's object (by a client, or with their owner, its field or
    /// a dropped class): `before` holds the relation key and the targets removed (``JournalRelationChange/json``),
    /// `after` is `nil`.
    package static let removeRelation = Self(rawValue: "removeRelation")
}
