package import BmobWire

/// Everything a class is besides its objects: the recorded fields, the class-level permissions and the declared
/// indexes. The journal's ``JournalOperation/schema`` and ``JournalOperation/dropClass`` entries keep it as one
/// JSON document, so that history, restore and other nodes' schema caches can follow a class:
/// `{"fields": {"title": {"type": "String"}, "owner": {"type": "Pointer", "targetClass": "_User"}},
/// "permissions": {…}, "indexes": [{"paths": ["score"], "unique": false}]}` (`permissions` only when set).
package struct StoredClassSchema: Sendable, Equatable {
    /// The fields the schema registry recorded, by name.
    package var fields: [String: FieldSchema]
    /// The class-level permissions, `nil` when the class has none.
    package var permissions: JSONValue?
    /// The declared indexes, in declaration order.
    package var indexes: [StoredIndex]

    /// Makes a schema value.
    package init(fields: [String: FieldSchema] = [:], permissions: JSONValue? = nil, indexes: [StoredIndex] = []) {
        self.fields = fields
        self.permissions = permissions
        self.indexes = indexes
    }

    /// The document a journal entry keeps.
    package var json: JSONValue {
        var fieldMembers: [String: JSONValue] = [:]
        for (name, schema) in fields {
            var field: [String: JSONValue] = ["type": .string(schema.type.rawValue)]
            if let targetClass = schema.targetClass { field["targetClass"] = .string(targetClass) }
            fieldMembers[name] = .object(field)
        }
        let indexMembers: [JSONValue] = indexes.map { index in
            ["paths": .array(index.paths.map(JSONValue.string)), "unique": .bool(index.unique)]
        }
        var members: [String: JSONValue] = ["fields": .object(fieldMembers), "indexes": .array(indexMembers)]
        members["permissions"] = permissions
        return .object(members)
    }

    /// Reads back a document made by ``json``.
    ///
    /// - Returns: `nil` when `json` is not such a document (an unknown field type, say).
    package init?(json: JSONValue) {
        guard let fieldMembers = json["fields"]?.objectValue else { return nil }
        var fields: [String: FieldSchema] = [:]
        for (name, field) in fieldMembers {
            guard let typeName = field["type"]?.stringValue, let type = BmobFieldType(rawValue: typeName) else {
                return nil
            }
            fields[name] = FieldSchema(type: type, targetClass: field["targetClass"]?.stringValue)
        }
        var indexes: [StoredIndex] = []
        for index in json["indexes"]?.arrayValue ?? [] {
            guard let paths = index["paths"]?.arrayValue?.compactMap(\.stringValue), !paths.isEmpty else { return nil }
            indexes.append(StoredIndex(paths: paths, unique: index["unique"]?.boolValue ?? false))
        }
        self.init(fields: fields, permissions: json["permissions"], indexes: indexes)
    }
}
