import BmobWire

/// The files of an export folder, which imports read:
///
/// ```
/// <Class>.json               {"results":[<object as REST shows it>, …]}, sorted by objectId
/// _Join:<key>:<Class>.json   {"results":[{"owningId":…,"relatedId":…}, …]}: the relation <key> of <Class>
/// _schema.json               {"results":[{"className","fields":{name:{"type","targetClass"?}},
///                             "indexes":[[path,…] or {"fields":[path,…],"unique":true}, …],
///                             "classLevelPermissions"?}, …]}
/// ```
///
/// Users carry their stored password hash in `_hashed_password` (scrypt, or bcrypt from Parse).
package enum TransferLayout {
    /// The schema file's name.
    package static let schemaFile = "_schema.json"
    /// Parse Server's schema collection as `mongoexport` writes it: one document per class, `{"_id": class,
    /// field: "string" | "number" | "geopoint" | "file" | "*Class" | "relation<Class>" | …}`.
    package static let parseSchemaFile = "_SCHEMA.json"
    /// The field of a user's stored password hash, Parse's name for it.
    package static let hashedPassword = "_hashed_password"
    /// The largest file an import reads.
    package static let maximumFileBytes = 512 << 20
    /// The most bytes an import folder may hold in all (everything is read and checked before writing, so it is
    /// held in memory): import a larger app in several folders, a few classes each.
    package static let maximumTotalBytes = 2 << 30
    /// The most files an import folder may hold.
    package static let maximumFiles = 10_000

    /// The file of a class's objects.
    package static func classFile(_ className: String) -> String {
        className + ".json"
    }

    /// The file of the relation `key` of `className`, Parse's name for it.
    package static func joinFile(key: String, className: String) -> String {
        "_Join:\(key):\(className).json"
    }

    /// What a file name in an import folder stands for: a class, a relation (`key`, owning class), the schema,
    /// or `nil` for a name no export writes.
    package enum File: Equatable {
        case schema
        /// Parse's `_SCHEMA` collection (``parseSchemaFile``).
        case parseSchema
        case objects(className: String)
        case relation(key: String, className: String)
    }

    /// What the file `name` holds, or `nil` for a name no export writes.
    package static func classify(_ name: String) -> File? {
        guard name.hasSuffix(".json") else { return nil }
        let stem = String(name.dropLast(5))
        if name == schemaFile { return .schema }
        if name == parseSchemaFile { return .parseSchema }
        if stem.hasPrefix("_Join:") {
            let parts = stem.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, BmobName.isValidFieldName(String(parts[1])), BmobName.isValidClassName(String(parts[2]))
            else { return nil }
            return .relation(key: String(parts[1]), className: String(parts[2]))
        }
        return BmobName.isValidClassName(stem) ? .objects(className: stem) : nil
    }
}
