import BmobStore
import BmobWire

/// An index as `/1/schemas` and export folders write it: a plain index is its list of field paths
/// (`["team", "-score"]`), a unique one `{"fields": ["email"], "unique": true}` — the two shapes a schema change
/// accepts, so what a schema lists can be sent back as it is.
extension StoredIndex {
    /// The entry a schema's `indexes` lists.
    var schemaJSON: JSONValue {
        let paths = JSONValue.array(paths.map(JSONValue.string))
        return unique ? ["fields": paths, "unique": true] : paths
    }

    /// Reads an entry of either shape.
    ///
    /// - Returns: `nil` unless it is a non-empty list of strings or an object whose `fields` is one (and whose
    ///   `unique`, when present, is a boolean).
    init?(schemaJSON entry: JSONValue) {
        let list = entry.arrayValue ?? entry["fields"]?.arrayValue
        guard let list, !list.isEmpty else { return nil }
        let paths = list.compactMap(\.stringValue)
        guard paths.count == list.count else { return nil }
        let unique = entry["unique"]
        if let unique, unique.boolValue == nil { return nil }
        self.init(paths: paths, unique: unique?.boolValue ?? false)
    }
}
