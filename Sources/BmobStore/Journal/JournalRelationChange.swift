package import BmobWire

/// The members a relation entry (``JournalOperation/addRelation``, ``JournalOperation/removeRelation``) added or
/// removed: the relation's key on the entry's object, and the targets, as one JSON document
/// `{"key": "likes", "targets": [{"__type": "Pointer", "className": …, "objectId": …}, …]}`.
package struct JournalRelationChange: Sendable, Equatable {
    /// The relation field of the owner object.
    package var key: String
    /// The objects added or removed, in the order they were.
    package var targets: [PointerValue]

    /// Makes a change value.
    package init(key: String, targets: [PointerValue]) {
        self.key = key
        self.targets = targets
    }

    /// The document a journal entry keeps.
    package var json: JSONValue {
        ["key": .string(key), "targets": .array(targets.map(\.json))]
    }

    /// Reads back a document made by ``json``.
    ///
    /// - Returns: `nil` when `json` is not such a document.
    package init?(json: JSONValue) {
        guard let key = json["key"]?.stringValue, let targets = json["targets"]?.arrayValue else { return nil }
        var pointers: [PointerValue] = []
        for target in targets {
            guard let pointer = PointerValue(json: target) else { return nil }
            pointers.append(pointer)
        }
        self.init(key: key, targets: pointers)
    }
}
