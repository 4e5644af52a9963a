import BmobStore
package import BmobWire

/// Class schemas for `/1/schemas` and the native `schemas` call: field types from the registry, declared
/// indexes, and changes to both. Master Key only, on every door (401 otherwise): a schema lists every field
/// and permission of the app.
///
/// A schema is `{"className", "fields": {"name": {"type": "String"}, "owner": {"type": "Pointer",
/// "targetClass": "_User"}}, "indexes": [["score"], ["team", "-score"]]}`; the system fields (`objectId`,
/// `createdAt`, `updatedAt`, `ACL`) are always listed; `classLevelPermissions` (see ``ClassPermissions``) when set.
/// `indexes` is this server's extension: each entry is a
/// list of field paths, or `{"fields": [paths], "unique": true}` for a unique index (``StoredIndex/schemaJSON``),
/// and queries filtering or ordering on them use the index.
package struct SchemaService: Sendable {
    package init() {}

    /// Field types by the names clients use (`Bool` and `Geo` are the PHP documentation's spellings).
    package static func fieldType(named name: String) -> BmobFieldType? {
        switch name {
        case "Bool": .boolean
        case "Geo", "GeoPoint": .geoPoint
        default: BmobFieldType(rawValue: name)
        }
    }

    /// Every class's schema.
    ///
    /// - Throws: ``BmobAPIError/unauthorized`` without the master key.
    package func all(context: AppContext) async throws -> JSONValue {
        try Self.requireMaster(context)
        return try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                var results: [JSONValue] = []
                for className in try transaction.classNames() {
                    results.append(try Self.schema(className, transaction: transaction))
                }
                return ["results": .array(results)]
            }
        }
    }

    /// One class's schema.
    ///
    /// - Throws: ``BmobAPIError`` 103 for an unknown or invalid class.
    package func get(className: String, context: AppContext) async throws -> JSONValue {
        try Self.requireMaster(context)
        try ObjectService.validateClassName(className)
        return try await ObjectService.mapStoreErrors {
            try await context.store.read { transaction in
                guard try transaction.classNames().contains(className) else {
                    throw BmobAPIError(.invalidClassName, "class \(className) does not exist")
                }
                return try Self.schema(className, transaction: transaction)
            }
        }
    }

    /// Adds fields and indexes (`POST` creates the class, `PUT` changes it); a field marked
    /// `{"__op":"Delete"}` is removed from the schema and from every object.
    ///
    /// - Throws: ``BmobAPIError`` 103 (class), 105 (field names), 107 (types), 111 (a field that has another type).
    package func update(className: String, body: [String: JSONValue], create: Bool, context: AppContext) async throws -> JSONValue {
        try Self.requireMaster(context)
        try ObjectService.validateClassName(className)
        switch body["className"] {
        case nil, .null?: break
        case .string(let named)? where named == className: break
        case .string?: throw BmobAPIError(.invalidClassName, "className in the body does not match the path")
        // Not ignored: a body whose className is not even a string was not meant for this class.
        default: throw BmobAPIError(.invalidJSON, "className in the body must be a string")
        }
        let changes = try SchemaChanges(body)
        let security = context.app.security
        return try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                let exists = try transaction.classNames().contains(className)
                if create, exists { throw BmobAPIError(.invalidClassName, "class \(className) already exists") }
                if !create, !exists { throw BmobAPIError(.invalidClassName, "class \(className) does not exist") }
                try SchemaGrowth.checkSchemaChange(
                    className: className, adding: changes.fields, security: security, transaction: transaction)
                // Recording (even no fields) creates the class.
                try transaction.recordFields(className: className, fields: changes.fields)
                for field in changes.removedFields {
                    try transaction.removeField(className: className, field: field)
                }
                for index in changes.indexes {
                    try transaction.createIndex(className: className, paths: index.paths, unique: index.unique)
                }
                for paths in changes.droppedIndexes {
                    try transaction.dropIndex(className: className, paths: paths)
                }
                switch changes.permissions {
                case .keep: break
                case .remove: try transaction.setClassPermissions(className: className, permissions: nil)
                case .set(let permissions): try transaction.setClassPermissions(className: className, permissions: permissions.json)
                }
                return try Self.schema(className, transaction: transaction)
            }
        }
    }

    /// Drops an empty class and its schema.
    ///
    /// - Throws: ``BmobAPIError`` 103 for an unknown class, or one that still holds objects.
    package func delete(className: String, context: AppContext) async throws {
        try Self.requireMaster(context)
        try ObjectService.validateClassName(className)
        try await ObjectService.mapStoreErrors {
            try await context.store.write(caller: context.journalAuthor) { transaction in
                guard try transaction.classNames().contains(className) else {
                    throw BmobAPIError(.invalidClassName, "class \(className) does not exist")
                }
                guard try transaction.count(className: className) == 0 else {
                    throw BmobAPIError(.invalidClassName, "class \(className) is not empty; delete its objects first")
                }
                try transaction.dropClass(className: className)
            }
        }
    }

    private static func requireMaster(_ context: AppContext) throws(BmobAPIError) {
        guard context.isMaster else { throw BmobAPIError.unauthorized }
    }

    static func schema(_ className: String, transaction: any StoreReadTransaction) throws -> JSONValue {
        var fields: [String: JSONValue] = [
            "objectId": ["type": "String"], "createdAt": ["type": "Date"], "updatedAt": ["type": "Date"],
            "ACL": ["type": "Object"],
        ]
        for (name, schema) in try transaction.schema(className: className) {
            var entry: [String: JSONValue] = ["type": .string(schema.type.rawValue)]
            entry["targetClass"] = schema.targetClass.map(JSONValue.string)
            fields[name] = .object(entry)
        }
        let indexes = try transaction.indexes(className: className).map(\.schemaJSON)
        var schema: [String: JSONValue] = ["className": .string(className), "fields": .object(fields), "indexes": .array(indexes)]
        schema["classLevelPermissions"] = try transaction.classPermissions(className: className)
        return .object(schema)
    }
}

/// The decoded body of a schema change.
struct SchemaChanges {
    struct Index {
        var paths: [String]
        var unique: Bool
    }

    /// What to do with the class-level permissions.
    enum PermissionChange {
        case keep
        case remove
        case set(ClassPermissions)
    }

    var fields: [String: FieldSchema] = [:]
    var removedFields: [String] = []
    var indexes: [Index] = []
    var droppedIndexes: [[String]] = []
    var permissions = PermissionChange.keep

    init(_ body: [String: JSONValue]) throws(BmobAPIError) {
        if let declared = body["fields"] {
            guard case .object(let entries) = declared else { throw BmobAPIError(.invalidJSON, "fields must be an object") }
            for (name, entry) in entries {
                if BmobName.systemFields.contains(name) { continue }
                guard BmobName.isValidFieldName(name) else { throw BmobAPIError(.invalidFieldName, "invalid field name: \(name)") }
                if entry["__op"]?.stringValue == "Delete" {
                    removedFields.append(name)
                    continue
                }
                guard let typeName = entry["type"]?.stringValue, let type = SchemaService.fieldType(named: typeName) else {
                    throw BmobAPIError(.invalidJSON, "field '\(name)' needs a type: String, Number, Boolean, Date, File, GeoPoint, Array, Object, Pointer or Relation")
                }
                var schema = FieldSchema(type: type)
                if type == .pointer || type == .relation {
                    guard let target = entry["targetClass"]?.stringValue, BmobName.isValidClassName(target) else {
                        throw BmobAPIError(.missingRelationClass, "field '\(name)' needs a targetClass")
                    }
                    schema.targetClass = target
                }
                fields[name] = schema
            }
        }
        switch body["classLevelPermissions"] {
        case nil: break
        case .null?: permissions = .remove
        case let declared?: permissions = .set(try ClassPermissions(json: declared))
        }
        if let declared = body["indexes"] {
            guard case .array(let entries) = declared else { throw BmobAPIError(.invalidJSON, "indexes must be an array") }
            for entry in entries {
                // Either ["a", "b"] or {"fields": ["a", "b"], "unique": true} or {"fields": […], "__op": "Delete"}.
                guard let index = StoredIndex(schemaJSON: entry) else {
                    throw BmobAPIError(.invalidJSON, "each index is a list of field paths (and a boolean 'unique')")
                }
                if entry["__op"]?.stringValue == "Delete" {
                    droppedIndexes.append(index.paths)
                } else {
                    indexes.append(Index(paths: index.paths, unique: index.unique))
                }
            }
        }
    }
}
